// The retention job: what the service keeps only for a while is deleted once its time is over. Freed pages are
// zeroed by secure_delete (src/db/connect.ts) and the WAL is folded by the regeneration's checkpoint every minute (and
// by npm run retention before it exits), so deleted rows leave no copy in app.db or app.db-wal. Runs in the server
// every hour and once at start-up, and as a one-shot command.
import { sql } from 'kysely';
import { chunks } from '../collections.js';
import type { SyncDb } from '../db/sync.js';
import { expireIdempotencyKeys } from '../db/idempotency.js';
import { UNSUBSCRIBED_QUIET_MS } from '../follows/service.js';
import { CONFIRM_LINK_TTL_MS, INVITATION_EMAILS } from '../mail/catalog.js';
import { FOLLOW_LINK_PURPOSES } from '../security/link-tokens.js';
import { mailboxOf } from '../mail/mailbox.js';
import { invitationsOverFrom } from '../rsvp/state.js';
import type { Job } from './scheduler.js';

const DAY_MS = 24 * 3600_000;
/** Expired links are kept this long, so that a late click says "expired" rather than "not valid". */
export const EXPIRED_LINK_KEPT_MS = 30 * DAY_MS;
/**
 * A follow's links are kept this long after it unsubscribed, then deleted, however long they had left: as long as a
 * request from the form sends it nothing (the follows' quiet period), so that its unsubscribe link stays its owner's
 * way back ("Follow again"); after it, a credential kept is a credential that can leak.
 */
export const UNSUBSCRIBED_LINKS_KEPT_MS = UNSUBSCRIBED_QUIET_MS;
/** Emails sent or given up on are kept this long (their content, for an operator's questions), then deleted. */
export const FINISHED_EMAIL_KEPT_MS = 30 * DAY_MS;
/**
 * A follow never confirmed is deleted this long after its last confirmation was asked for: its confirm link works
 * 7 days (CONFIRM_LINK_TTL_MS) and says "expired" for 30 more (EXPIRED_LINK_KEPT_MS), the email may leave a day or
 * so after the request (retries), and after that nothing can ever confirm it. Anyone can type anyone's address into
 * the follow form: an address its owner never confirmed is not kept for good.
 */
export const UNCONFIRMED_FOLLOW_KEPT_MS = CONFIRM_LINK_TTL_MS + EXPIRED_LINK_KEPT_MS + 2 * DAY_MS;
/**
 * A follow that unsubscribed (with a link, or ended by the mail provider refusing its address: endUndeliverableFollow,
 * the same status) is deleted this long after, with its links and its finished emails. Its address is needed only for
 * the quiet after an unsubscribe (UNSUBSCRIBED_QUIET_MS: the form sends that mailbox nothing for the scope, and the
 * follow's links, kept as long, offer "Follow again"); after it the form works as for a new follow, which needs no
 * trace of the old one. The day more is the per-mailbox daily cap's: a confirmation withheld during the quiet counts
 * toward it for 24 hours (follows/service.ts), and goes with the follow only once it no longer counts. A data
 * protection review found unsubscribed followers' addresses kept for good.
 */
export const UNSUBSCRIBED_FOLLOW_KEPT_MS = UNSUBSCRIBED_QUIET_MS + DAY_MS;

/**
 * An RSVP invitation (the member's address, their answer and when) is kept this long after its match's kickoff once
 * the match is over for it (played, kicked off, cancelled: src/rsvp/state.ts invitationsOverFrom), then deleted with
 * its links and its finished emails. The organizer's `npm run rsvp` list of a match answers the season's questions
 * (who was available, who turned up) well after it is played; half a year covers a season and its end, and the
 * answers serve nothing after. A data protection review found every invitation kept for good.
 */
export const RSVP_INVITATION_KEPT_MS = 180 * DAY_MS;

export interface RetentionResult {
  idempotencyKeys: number;
  /** Follows never confirmed, past UNCONFIRMED_FOLLOW_KEPT_MS. */
  unconfirmedFollows: number;
  /** Follows that unsubscribed (or that the provider ended), past UNSUBSCRIBED_FOLLOW_KEPT_MS. */
  unsubscribedFollows: number;
  /** RSVP invitations of a match over, past RSVP_INVITATION_KEPT_MS. */
  invitations: number;
  links: number;
  registrations: number;
  /** Of them, each organization's (those with none left out). */
  registrationsOf: Record<string, number>;
  emails: number;
  changes: number;
}

/** Deletes, in one transaction, everything whose time is over at `now`. */
export function applyRetention(store: SyncDb, now: Date): RetentionResult {
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  return store.transaction(() => {
    const idempotencyKeys = expireIdempotencyKeys(store, now);
    // Follows nobody confirmed, whose confirmation can no longer be clicked: their links first, then the follows.
    const unconfirmedIds = store.all(
      store.q.selectFrom('follows').select('id')
        .where('status', '=', 'pending')
        .where(sql<string>`coalesce(last_confirmation_sent_at, created_at)`, '<', before(UNCONFIRMED_FOLLOW_KEPT_MS)),
    ).map((r) => r.id);
    let unconfirmedLinks = 0;
    let unconfirmedFollows = 0;
    for (const ids of chunks(unconfirmedIds)) {
      unconfirmedLinks += store.run(
        store.q.deleteFrom('link_tokens').where('purpose', 'in', FOLLOW_LINK_PURPOSES).where('subject_id', 'in', ids),
      );
      unconfirmedFollows += store.run(store.q.deleteFrom('follows').where('id', 'in', ids).where('status', '=', 'pending'));
    }
    // Follows that left, once their quiet (and the day their withheld confirmations count) is over: their links (deleted
    // already 30 days after the unsubscribe, UNSUBSCRIBED_LINKS_KEPT_MS), their finished emails (found through the
    // outbox's mailbox index: the follow's address is each one's to_address), then the follows. One still pending in
    // the outbox is cancelled when it leaves (its follow is gone: catalog.ts atSend).
    const leftFollows = store.all(
      store.q.selectFrom('follows').select(['id', 'email'])
        .where('status', '=', 'unsubscribed')
        .where((eb) => eb.or([eb('unsubscribed_at', 'is', null), eb('unsubscribed_at', '<', before(UNSUBSCRIBED_FOLLOW_KEPT_MS))])),
    );
    let leftLinks = 0;
    let leftEmails = 0;
    let unsubscribedFollows = 0;
    for (const chunk of chunks(leftFollows)) {
      const ids = chunk.map((f) => f.id);
      leftLinks += store.run(
        store.q.deleteFrom('link_tokens').where('purpose', 'in', FOLLOW_LINK_PURPOSES).where('subject_id', 'in', ids),
      );
      leftEmails += store.run(
        store.q.deleteFrom('email_outbox')
          .where('mailbox', 'in', [...new Set(chunk.map((f) => mailboxOf(f.email)))])
          .where('status', 'in', ['sent', 'failed'])
          .where('template', 'in', ['follow-confirm', 'follow-updates'])
          .where(sql<string>`json_extract(data_json, '$.followId')`, 'in', ids),
      );
      unsubscribedFollows += store.run(store.q.deleteFrom('follows').where('id', 'in', ids).where('status', '=', 'unsubscribed'));
    }
    // Invitations of a match over for half a year: their links, their finished emails (the row names its invitation
    // in invitationId), then the invitations. The rule is the RSVP state's (invitationsOverFrom); the query only
    // narrows to matches whose kickoff, or last change, is old enough. One still pending is cancelled as it leaves.
    const invitationCutoff = now.getTime() - RSVP_INVITATION_KEPT_MS;
    const overIds = store.all(
      store.q.selectFrom('rsvp_invitations as i').innerJoin('matches as m', 'm.id', 'i.match_id').innerJoin('events as e', 'e.id', 'm.event_id')
        .select(['i.id', 'm.status', 'e.status as event_status', 'm.kickoff_at', 'm.updated_at'])
        .where(sql<number>`julianday(coalesce(m.kickoff_at, m.updated_at))`, '<', sql<number>`julianday(${before(RSVP_INVITATION_KEPT_MS)})`),
    ).filter((row) => {
      const over = invitationsOverFrom(row, now);
      return over !== null && Date.parse(over) < invitationCutoff;
    }).map((row) => row.id);
    let invitationLinks = 0;
    let invitationEmails = 0;
    let invitations = 0;
    for (const ids of chunks(overIds)) {
      invitationLinks += store.run(store.q.deleteFrom('link_tokens').where('purpose', '=', 'rsvp').where('subject_id', 'in', ids));
      invitationEmails += store.run(
        store.q.deleteFrom('email_outbox')
          .where('status', 'in', ['sent', 'failed'])
          .where('template', 'in', INVITATION_EMAILS)
          .where(sql<string>`json_extract(data_json, '$.invitationId')`, 'in', ids),
      );
      invitations += store.run(store.q.deleteFrom('rsvp_invitations').where('id', 'in', ids));
    }
    const links =
      unconfirmedLinks +
      leftLinks +
      invitationLinks +
      store.run(store.q.deleteFrom('link_tokens').where('expires_at', '<', before(EXPIRED_LINK_KEPT_MS))) +
      store.run(
        store.q.deleteFrom('link_tokens')
          .where('purpose', 'in', FOLLOW_LINK_PURPOSES)
          .where('subject_id', 'in', (eb) =>
            eb.selectFrom('follows').select('id')
              .where('status', '=', 'unsubscribed').where('unsubscribed_at', '<', before(UNSUBSCRIBED_LINKS_KEPT_MS))),
      ) +
      // The links of an invitation that is gone (its member or match removed by an import): they open nothing now.
      // `npm run invite` deletes those of the invitations it withdraws itself.
      store.run(
        store.q.deleteFrom('link_tokens')
          .where('purpose', '=', 'rsvp')
          .where((eb) => eb.not(eb.exists(
            eb.selectFrom('rsvp_invitations').select('id').whereRef('rsvp_invitations.id', '=', 'link_tokens.subject_id'),
          ))),
      );
    // Each organization keeps its registrations for its own registration_retention_days.
    const registrationsOf: Record<string, number> = {};
    for (const org of store.all(store.q.selectFrom('organizations').select(['id', 'registration_retention_days']).orderBy('id'))) {
      const deleted = store.run(
        store.q.deleteFrom('registrations')
          .where('org_id', '=', org.id)
          .where('created_at', '<', before(org.registration_retention_days * DAY_MS)),
      );
      if (deleted > 0) registrationsOf[org.id] = deleted;
    }
    const registrations = Object.values(registrationsOf).reduce((sum, n) => sum + n, 0);
    // A registration's notice carries its details: once the registration is gone, so are its emails, those still
    // waiting too (a data protection review found a pending notice of a registration deleted here sent a day later,
    // once Postmark was back). The outbox row names its registration in its data (registrationId); one the worker is
    // sending as this runs is cancelled by its send-time check (catalog.ts), or is gone before its outcome is recorded.
    // A row emptied when its registration was removed (outbox.ts emptyEmails: no registrationId) carries nothing, and
    // still counts against its mailbox's daily limit: it goes with the finished emails, after 30 days.
    const registrationEmails = store.run(
      store.q.deleteFrom('email_outbox')
        .where('template', 'in', ['registration-notice', 'registration-receipt'])
        .where(sql<string>`json_extract(data_json, '$.registrationId')`, 'is not', null)
        .where((eb) => eb.not(eb.exists(
          eb.selectFrom('registrations').select('id').where('id', '=', sql<string>`json_extract(email_outbox.data_json, '$.registrationId')`),
        ))),
    );
    const emails = registrationEmails + leftEmails + invitationEmails + store.run(
      store.q.deleteFrom('email_outbox').where('status', 'in', ['sent', 'failed']).where('created_at', '<', before(FINISHED_EMAIL_KEPT_MS)),
    );
    // Changes every active follow has been told (or older than 30 days: a follow that waits longer hears nothing
    // older) are no longer needed. Their ids stay unique (AUTOINCREMENT), so no cursor ever points at a new one.
    const told = store.first(
      store.q.selectFrom('follows')
        .select((eb) => eb.fn.min(sql<number>`min(told_through, alerted_through)`).as('id'))
        .where('status', '=', 'active'),
    )?.id;
    const changes = store.run(
      store.q.deleteFrom('update_changes').where((eb) =>
        eb.or([
          eb('detected_at', '<', before(FINISHED_EMAIL_KEPT_MS)),
          ...(told === null || told === undefined ? [eb('id', '>', -1)] : [eb('id', '<=', told)]),
        ])),
    );
    return { idempotencyKeys, unconfirmedFollows, unsubscribedFollows, invitations, links, registrations, registrationsOf, emails, changes };
  });
}

export function runRetention(store: SyncDb, now: Date): string {
  const started = performance.now();
  const r = applyRetention(store, now);
  return (
    // Each organization's named: the operator tells it that its export no longer has them (a registrations review).
    `retention: ${r.registrations} registrations${r.registrations > 0 ? ` (${Object.entries(r.registrationsOf).map(([org, n]) => `${org} ${n}`).join(', ')})` : ''}, ${r.emails} emails (finished, or of a registration gone), ${r.idempotencyKeys} idempotency keys, ` +
    `${r.unconfirmedFollows} follows never confirmed, ${r.unsubscribedFollows} follows unsubscribed more than ${UNSUBSCRIBED_FOLLOW_KEPT_MS / DAY_MS} days ago, ` +
    `${r.invitations} RSVP invitations of matches over (played, kicked off or cancelled) more than ${RSVP_INVITATION_KEPT_MS / DAY_MS} days ago, ` +
    `${r.changes} told changes and ${r.links} links (expired, of a follow that left or of an invitation gone) deleted, ${Math.round(performance.now() - started)} ms`
  );
}

export const RETENTION_JOB = 'retention';

export function retentionJob(store: SyncDb, now: () => Date): Job {
  return { name: RETENTION_JOB, everyS: 3600, run: async () => runRetention(store, now()) };
}
