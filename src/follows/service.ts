// Following an organization (or one of its leagues) by email, with double opt-in: a follow is active only
// once the emailed link is opened. Confirmation emails are throttled per follow and per address, so the
// form cannot be used to flood someone's inbox.
import { sql } from 'kysely';
import type { SyncDb } from '../db/sync.js';
import { InvalidFieldError, NO_SUCH_ORGANIZATION, NOT_ITS_LEAGUE, RateLimitedError } from '../errors.js';
import { leagueIsPublic, noLeagueOrPublic } from '../competitions/visibility.js';
import { CONFIRM_LINK_TTL_MS } from '../mail/catalog.js';
import { deliveryKey, mailboxOf } from '../mail/mailbox.js';
import { queueEmail, recentEmails, withholdEmail } from '../mail/outbox.js';
import { findLinkToken } from '../security/link-tokens.js';
import { newId } from '../security/tokens.js';
import type { FollowRequest, FollowResponse } from './schema.js';
import type { FollowStatus } from '../vocabulary/enums.js';
import { localizedName, type Language } from '../vocabulary/language.js';

export const CONFIRM_TOKEN_TTL_MS = CONFIRM_LINK_TTL_MS;
/** A second request for the same follow within this time re-uses the email already sent. */
export const RESEND_AFTER_MS = 10 * 60_000;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * After an unsubscribe, a request to follow that scope again from that mailbox (any spelling of it: deliveryKey) sends
 * nothing for this long: the mailbox said stop, and anyone can type anyone's address into the form. The answer is the usual
 * `confirm_email_sent`, so that it does not tell a stranger the address unsubscribed. Its owner follows again from
 * the unsubscribe link of any of its emails (followAgain): those links are kept exactly as long (retention.ts), so
 * there is always one way back, and after it the form works as for a new follow.
 */
export const UNSUBSCRIBED_QUIET_MS = 30 * DAY_MS;
export const FOLLOW_CONFIRM_TAG = 'follow-confirm';

export interface FollowContext {
  now: Date;
  /** Confirmation emails one address may receive in 24 hours; 0 = unlimited. */
  emailsPerDay: number;
}

const iso = (d: Date) => d.toISOString();

export function requestFollow(store: SyncDb, input: FollowRequest, ctx: FollowContext): FollowResponse {
  return store.transaction(() => {
    const org = store.first(
      store.q.selectFrom('organizations').select(['id', 'name', 'name_ar', 'language']).where('id', '=', input.org_id),
    );
    if (!org) throw new InvalidFieldError('org_id', NO_SUCH_ORGANIZATION);
    let league: { id: string; name: string; name_ar: string | null } | undefined;
    if (input.league_id !== undefined) {
      league = store.first(
        store.q.selectFrom('leagues').select(['id', 'name', 'name_ar'])
          .where('id', '=', input.league_id).where('org_id', '=', org.id)
          .where((eb) => leagueIsPublic(eb.ref('leagues.id'))),
      );
      if (!league) throw new InvalidFieldError('league_id', NOT_ITS_LEAGUE);
    }
    const existing = store.first(
      store.q.selectFrom('follows').select(['id', 'status', 'last_confirmation_sent_at', 'unsubscribed_at', 'language'])
        .where('org_id', '=', org.id)
        .where(sql<string>`ifnull(league_id, '')`, '=', league?.id ?? '')
        .where('email', '=', input.email),
    );
    if (existing?.status === 'active') return { status: 'already_following' };
    if (ctx.emailsPerDay > 0) {
      const since = new Date(ctx.now.getTime() - DAY_MS);
      const sent = recentEmails(store, { address: input.email, tag: FOLLOW_CONFIRM_TAG, since });
      if (sent.count >= ctx.emailsPerDay) {
        // In whole hours: to the second, it told a stranger when the mailbox's oldest confirmation of the day was
        // asked for (a review read "3 s ago" off it: the owner's own follow).
        const retryAfterS = Math.ceil((Date.parse(sent.oldest!) + DAY_MS - ctx.now.getTime()) / HOUR_MS) * (HOUR_MS / 1000);
        throw new RateLimitedError('This address has been sent as many confirmation emails as we send in a day.', retryAfterS, {
          name: 'mailbox',
          quota: ctx.emailsPerDay,
          windowS: DAY_MS / 1000,
        });
      }
    }
    // After the daily cap, so that a mailbox at its cap is answered 429 for this scope as for any other: the answer
    // never tells whether the address unsubscribed, or asked for this follow minutes ago (before the cap, a request
    // resent within RESEND_AFTER_MS answered 200 where every other scope answered 429).
    if (
      existing?.status === 'pending' &&
      existing.last_confirmation_sent_at !== null &&
      ctx.now.getTime() - Date.parse(existing.last_confirmation_sent_at) < RESEND_AFTER_MS
    ) {
      return { status: 'confirm_email_sent' };
    }
    const mailbox = deliveryKey(input.email);
    // The language asked for; a request that asks none keeps the one an earlier request of this follow asked for.
    // Stored as asked (null: none, the organization's), so that the follow reads what its organization speaks.
    const asked = input.language ?? existing?.language ?? null;
    const language: Language = asked ?? org.language;
    const quietSince = iso(new Date(ctx.now.getTime() - UNSUBSCRIBED_QUIET_MS));
    const confirmation = (followId: string) => ({
      to: input.email,
      template: 'follow-confirm' as const,
      tag: FOLLOW_CONFIRM_TAG,
      createdAt: ctx.now,
      data: {
        followId,
        language,
        organizationName: localizedName(org.name, org.name_ar, language),
        leagueName: league ? localizedName(league.name, league.name_ar, language) : null,
      },
    });
    const quietFollow =
      // This very follow (the only check for one unsubscribed before migration 0013, which has no mailbox), or …
      (existing?.status === 'unsubscribed' && existing.unsubscribed_at !== null && existing.unsubscribed_at > quietSince
        ? existing
        : undefined) ??
      // any spelling of the mailbox its provider delivers alike (case, a +tag, Gmail's dots) that unsubscribed from this
      // scope: the mailbox said stop. Only those: another person's address must not be silenced (deliveryKey).
      store.first(
        store.q.selectFrom('follows').select('id')
          .where('mailbox', '=', mailbox).where('org_id', '=', org.id)
          .where(sql<string>`ifnull(league_id, '')`, '=', league?.id ?? '')
          .where('status', '=', 'unsubscribed').where('unsubscribed_at', '>', quietSince),
      );
    if (quietFollow) {
      // Counted toward the daily cap as if sent, and as a sent one is: once per RESEND_AFTER_MS for this address and
      // scope (a fresh address asking again within it re-uses its email, above). Not counted, a fresh address was
      // answered 429 on its fourth scope and one that unsubscribed was not; counted on every request, the same scope
      // asked four times gave 429 where a fresh address got 200 (two reviews' findings).
      const withheldLately = store.first(
        // Read through email_outbox_mailbox (mailbox, tag, created_at); the address itself has no index.
        store.q.selectFrom('email_outbox').select('id')
          .where('mailbox', '=', mailboxOf(input.email)).where('tag', '=', FOLLOW_CONFIRM_TAG)
          .where('to_address', '=', input.email).where('status', '=', 'failed')
          .where(sql<string>`json_extract(data_json, '$.followId')`, '=', quietFollow.id)
          .where('created_at', '>', iso(new Date(ctx.now.getTime() - RESEND_AFTER_MS))),
      );
      if (!withheldLately) withholdEmail(store, confirmation(quietFollow.id), 'the mailbox unsubscribed from this scope less than 30 days ago');
      return { status: 'confirm_email_sent' };
    }

    const values = { status: 'pending' as const, last_confirmation_sent_at: iso(ctx.now), unsubscribed_at: null, mailbox, language: asked };
    let followId: string;
    if (existing) {
      followId = existing.id;
      // The links of the earlier emails keep working (until they expire): a stranger who makes us send another
      // email to this address must not void the one its owner is about to click.
      store.run(
        store.q.updateTable('follows')
          .set((eb) => ({ ...values, confirmations_sent: eb('confirmations_sent', '+', 1) }))
          .where('id', '=', existing.id),
      );
    } else {
      followId = newId('fol');
      store.run(
        store.q.insertInto('follows').values({
          id: followId, org_id: org.id, league_id: league?.id ?? null, email: input.email, confirmations_sent: 1,
          confirmed_at: null, ...values,
        }),
      );
    }
    // The confirm and unsubscribe links are minted when the email is sent: no token is stored here.
    queueEmail(store, confirmation(followId));
    return { status: 'confirm_email_sent' };
  });
}

/** `ask`: a pending follow whose link works; the page asks before confirming. */
export type ConfirmOutcome = 'ask' | 'confirmed' | 'already_confirmed' | 'expired' | 'unsubscribed' | 'invalid';

export interface FollowPageInfo {
  /**
   * `followed_again`: an unsubscribed follow made active again from its unsubscribe page (followAgain).
   * `new_link_sent`: an expired confirm link's page sent a new confirmation (sendNewConfirmLink).
   */
  outcome: ConfirmOutcome | 'already_unsubscribed' | 'followed_again' | 'new_link_sent';
  organizationName: string | null;
  leagueName: string | null;
  language: Language;
  /**
   * The address the follow's emails go to, as typed into the form: the confirm page shows it, so that whoever
   * confirms sees it whole (its confirmation email left out a +tag a stranger could have chosen: mail/mailbox.ts).
   */
  address: string | null;
  /**
   * The unsubscribe page may offer "Follow again" (followAgain would act): the follow is unsubscribed, or is being,
   * its link within its year, and its scope public.
   */
  canFollowAgain: boolean;
  /**
   * What else the follow's address follows in its organization, confirmed and public (the organization, or its other
   * leagues), by name: the unsubscribe page says those emails go on. A review unsubscribed from an organization's
   * digest, read "no more emails about" it, and got its league's digest the next day.
   */
  alsoFollowing: string[];
}

/** The follow a link opens, with what its pages show; `expired` for a confirm link past its time. */
function findByToken(store: SyncDb, purpose: 'follow-confirm' | 'follow-unsubscribe', token: string, now: Date) {
  const link = findLinkToken(store, purpose, token, now);
  if (!link) return undefined;
  const row = store.first(
    store.q.selectFrom('follows as f')
      .innerJoin('organizations as o', 'o.id', 'f.org_id')
      .leftJoin('leagues as l', 'l.id', 'f.league_id')
      .select([
        'f.id', 'f.org_id', 'f.league_id', 'f.status', 'f.email', 'o.name as org_name', 'o.name_ar as org_name_ar',
        'l.name as league_name', 'l.name_ar as league_name_ar',
        // Its pages in the language its emails are in: the one its request asked for, else its organization's.
        (eb) => eb.fn.coalesce('f.language', 'o.language').as('language'),
        // A league follow whose league has no public competition any more follows, to the public, an unknown id.
        (eb) => noLeagueOrPublic(eb.ref('f.league_id')).as('scope_public'),
      ])
      .where('f.id', '=', link.subjectId),
  );
  return row ? { ...row, scope_public: Boolean(row.scope_public), expired: link.expired } : undefined;
}

function pageInfo(row: FoundFollow | undefined, outcome: FollowPageInfo['outcome']): FollowPageInfo {
  // A link that is not valid tells nothing of the follow it names (its league may have gone private): it is answered
  // as a token we never issued.
  if (outcome === 'invalid') row = undefined;
  return {
    outcome,
    organizationName: row ? localizedName(row.org_name, row.org_name_ar, row.language) : null,
    // A league gone private is named by no page: its unsubscribe link still works, and says the organization only.
    leagueName: row?.league_name && row.scope_public ? localizedName(row.league_name, row.league_name_ar, row.language) : null,
    language: row?.language ?? 'en',
    address: row?.email ?? null,
    canFollowAgain: row !== undefined && row.scope_public && !row.expired &&
      (row.status === 'unsubscribed' || outcome === 'unsubscribed'),
    alsoFollowing: [],
  };
}

/** FollowPageInfo.alsoFollowing of `row`'s address: its other confirmed follows of the organization that are public. */
function alsoFollowing(store: SyncDb, row: FoundFollow): string[] {
  const others = store.all(
    store.q.selectFrom('follows as f')
      .innerJoin('organizations as o', 'o.id', 'f.org_id')
      .leftJoin('leagues as l', 'l.id', 'f.league_id')
      .select(['o.name as org_name', 'o.name_ar as org_name_ar', 'l.name as league_name', 'l.name_ar as league_name_ar'])
      .where('f.email', '=', row.email).where('f.org_id', '=', row.org_id).where('f.id', '!=', row.id).where('f.status', '=', 'active')
      .where((eb) => noLeagueOrPublic(eb.ref('f.league_id')))
      .orderBy('f.league_id').orderBy('f.id'),
  );
  return others.map((o) => o.league_name === null ? localizedName(o.org_name, o.org_name_ar, row.language) : localizedName(o.league_name, o.league_name_ar, row.language));
}

/** pageInfo of an unsubscribe link, with what else its address follows (none for a link answered as invalid). */
function unsubscribePageInfo(store: SyncDb, row: FoundFollow | undefined, outcome: FollowPageInfo['outcome']): FollowPageInfo {
  const info = pageInfo(row, outcome);
  return row && outcome !== 'invalid' && row.scope_public ? { ...info, alsoFollowing: alsoFollowing(store, row) } : info;
}

type FoundFollow = NonNullable<ReturnType<typeof findByToken>>;

/** What the confirm link of a follow can still do: `ask` when it would confirm. */
function confirmState(row: FoundFollow | undefined): ConfirmOutcome {
  // A follow of a league that has gone private (README, decisions: to the public, an unknown id) is not confirmed,
  // and its page does not name the league: the link answers as one we never issued. Public again, it works again.
  if (!row || !row.scope_public) return 'invalid';
  if (row.status === 'active') return 'already_confirmed';
  if (row.status === 'unsubscribed') return 'unsubscribed';
  return row.expired ? 'expired' : 'ask';
}

/**
 * What the confirm page shows, changing nothing. A GET (or HEAD) of the link never confirms: mail providers'
 * and companies' link scanners fetch the links of every incoming email, and a follow confirmed by a scanner
 * proves nothing about consent, which is what double opt-in is for. The page asks, and its button POSTs.
 */
export function peekConfirm(store: SyncDb, token: string, now: Date): FollowPageInfo {
  const row = findByToken(store, 'follow-confirm', token, now);
  return pageInfo(row, confirmState(row));
}

/** The confirm page's button (POST): activates a pending follow once; later posts say it is already confirmed. */
export function confirmFollow(store: SyncDb, token: string, now: Date): FollowPageInfo {
  return store.transaction(() => {
    const row = findByToken(store, 'follow-confirm', token, now);
    const state = confirmState(row);
    if (state !== 'ask' || !row) return pageInfo(row, state);
    // A new follower hears of what changes from now on, not of what changed before it followed.
    const newest = store.first(store.q.selectFrom('update_changes').select((eb) => eb.fn.max('id').as('id')))?.id ?? 0;
    store.run(
      store.q.updateTable('follows')
        .set({ status: 'active', confirmed_at: iso(now), told_through: newest, alerted_through: newest })
        .where('id', '=', row.id),
    );
    return pageInfo(row, 'confirmed');
  });
}

/**
 * "Send a new link", on the page of a confirm link past its 7 days (POST action=new-link): the follow's confirmation
 * again, to the address it went to, as the follow form would send it (requestFollow: the same resend window, the same
 * daily cap per mailbox, which throws RateLimitedError). A person who opened the email a week late was told to
 * "follow again", with no form on the page. Only for a follow still pending, its scope public: any other link
 * changes nothing and its page says what the link says.
 */
export function sendNewConfirmLink(store: SyncDb, token: string, ctx: FollowContext): FollowPageInfo {
  return store.transaction(() => {
    const row = findByToken(store, 'follow-confirm', token, ctx.now);
    const state = confirmState(row);
    if (state !== 'expired' || !row) return pageInfo(row, state);
    requestFollow(store, { org_id: row.org_id, league_id: row.league_id ?? undefined, email: row.email }, ctx);
    return pageInfo(row, 'new_link_sent');
  });
}

/**
 * What an unsubscribe link can still do: `unsubscribed` when it would unsubscribe. A follow already unsubscribed
 * says so whatever the link's age (it reassures, and tells its holder nothing new); a link past its year
 * (UNSUBSCRIBE_LINK_TTL_MS) unsubscribes no more, and the page sends its holder to a more recent email, each of
 * which carries a fresh link. Once retention has deleted a link (30 days after it expired, or after its follow
 * unsubscribed), it is `invalid`, as any token we never issued.
 */
export function unsubscribeState(row: { status: FollowStatus; expired: boolean } | undefined): FollowPageInfo['outcome'] {
  if (!row) return 'invalid';
  if (row.status === 'unsubscribed') return 'already_unsubscribed';
  return row.expired ? 'expired' : 'unsubscribed';
}

/** The unsubscribe link and RFC 8058 one-click POST. */
export function unsubscribeFollow(store: SyncDb, token: string, now: Date): FollowPageInfo {
  return store.transaction(() => {
    const row = findByToken(store, 'follow-unsubscribe', token, now);
    const state = unsubscribeState(row);
    if (state !== 'unsubscribed' || !row) return unsubscribePageInfo(store, row, state);
    // The mailbox, for the quiet that follows (a follow from before 0013 has none yet).
    store.run(
      store.q.updateTable('follows').set({ status: 'unsubscribed', unsubscribed_at: iso(now), mailbox: deliveryKey(row.email) }).where('id', '=', row.id),
    );
    // Its confirm links are kept: they confirm nothing now (confirmState: `unsubscribed`), and their page says
    // "You unsubscribed" with "Follow again" rather than "not valid, follow again" (which sends nothing for 30 days).
    return unsubscribePageInfo(store, row, 'unsubscribed');
  });
}

/**
 * Ends an active follow whose address the mail provider refuses for good (bounced, complained, or unsubscribed
 * through the provider's own link): as an unsubscribe, with its quiet (the form sends that mailbox nothing for 30
 * days) and its "Follow again". A follower's review found every digest to such an address failing, for good, and the
 * follow never ending. Called by the mail worker as it records the failure; whether it was active.
 */
export function endUndeliverableFollow(store: SyncDb, followId: string, now: Date): boolean {
  const row = store.first(store.q.selectFrom('follows').select(['id', 'email']).where('id', '=', followId).where('status', '=', 'active'));
  if (!row) return false;
  store.run(store.q.updateTable('follows').set({ status: 'unsubscribed', unsubscribed_at: iso(now), mailbox: deliveryKey(row.email) }).where('id', '=', row.id));
  return true;
}

/**
 * "Follow again", on the unsubscribe page of an unsubscribed follow, or on its confirm page (`purpose`
 * follow-confirm): the follow is active again at once. Either link came to the follow's mailbox, which proves the
 * request is its owner's (as a confirm link's POST does), so no new confirmation is sent; it is the owner's way back
 * while the form sends nothing (UNSUBSCRIBED_QUIET_MS). Like a new follower, it hears what changes from now on. A
 * link past its time, a follow not unsubscribed, or one of a league gone private (README, decisions) change
 * nothing: the page says what the link would otherwise say (for a follow still pending, the unsubscribe page asks
 * whether to unsubscribe, as its GET does; the confirm page asks whether to confirm).
 */
export function followAgain(store: SyncDb, token: string, now: Date, purpose: 'follow-unsubscribe' | 'follow-confirm' = 'follow-unsubscribe'): FollowPageInfo {
  return store.transaction(() => {
    const row = findByToken(store, purpose, token, now);
    // A second click finds it active: it says so, and changes nothing.
    if (row?.status === 'active' && row.scope_public) return { ...pageInfo(row, 'followed_again'), canFollowAgain: false };
    if (!row || row.status !== 'unsubscribed' || row.expired || !row.scope_public) {
      return pageInfo(row, purpose === 'follow-confirm' ? confirmState(row) : unsubscribeState(row));
    }
    const newest = store.first(store.q.selectFrom('update_changes').select((eb) => eb.fn.max('id').as('id')))?.id ?? 0;
    store.run(
      store.q.updateTable('follows')
        .set({ status: 'active', confirmed_at: iso(now), unsubscribed_at: null, told_through: newest, alerted_through: newest })
        .where('id', '=', row.id).where('status', '=', 'unsubscribed'),
    );
    return { ...pageInfo(row, 'followed_again'), canFollowAgain: false };
  });
}

/**
 * The follow an unsubscribe token opens, or undefined for anything that is not one of our unsubscribe tokens: the
 * one-click POST's rate limit counts a known token per follow rather than per client address (page-request.ts).
 */
export function unsubscribeLinkFollow(store: SyncDb, token: string, now: Date): string | undefined {
  return findLinkToken(store, 'follow-unsubscribe', token, now)?.subjectId;
}

/** Looks an unsubscribe token up without changing anything (the GET page asks before acting). */
export function peekUnsubscribe(store: SyncDb, token: string, now: Date): FollowPageInfo {
  const row = findByToken(store, 'follow-unsubscribe', token, now);
  return unsubscribePageInfo(store, row, unsubscribeState(row));
}
