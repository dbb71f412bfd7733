
// One run of the updates job: detect what changed (detect.ts), then decide for each active follow what it is told
// (tell.ts) and queue its emails, moving its cursors in the same transaction, a batch of follows at a time: a run
// killed midway has queued each email of the finished batches exactly once, and the next run does the rest.
import { pushInto } from '../collections.js';
import { compareCodeUnits } from '../competitions/tiebreakers.js';
import type { Database } from '../db/database.js';
import type { TemplateData } from '../mail/catalog.js';
import { queueEmail } from '../mail/outbox.js';
import { latestLocalHour } from '../time/local-time.js';
import { localizedName, type Language } from '../vocabulary/language.js';
import { changeIn, netChanges, withoutMootChanges, type ChangeKind, type ChangeNames } from './changes.js';
import { detectChanges } from './detect.js';
import { decideTogether, type ChangeRow, type Decision, type FollowState } from './tell.js';

export interface UpdatesOptions {
  now: Date;
  /** Local hour of the daily digest in each organization's time zone. */
  digestHour: number;
  alertDelayMs: number;
  /** Every digest is due now (operators, tests). */
  forceDigests: boolean;
  publicBaseUrl: string;
  /** Follows per transaction. */
  batchSize?: number;
}

export interface UpdatesResult {
  changes: number;
  follows: number;
  /** To follows, and to members invited to a match that changed. */
  emails: number;
  ms: number;
}

interface Change extends ChangeRow {
  event_id: string;
  match_id: string | null;
  kind: ChangeKind;
  data: ChangeNames & { matches?: number; next_kickoff?: string | null };
}

export async function runUpdates(database: Database, o: UpdatesOptions): Promise<UpdatesResult> {
  const started = performance.now();
  const detected = await detectChanges(database, o.now);
  const { store } = database;
  const newest = store.first(store.q.selectFrom('update_changes').select((eb) => eb.fn.max('id').as('id')))?.id ?? 0;
  // Only follows with something past a cursor: a quiet run reads nothing else.
  const waiting = store.q.selectFrom('follows')
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('told_through', '<', newest), eb('alerted_through', '<', newest)]));
  const lowest = store.first(
    waiting.select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number>('told_through').as('told'), eb.fn.min<number>('alerted_through').as('alerted')]),
  );
  const result = { changes: detected.changes, follows: 0, emails: detected.inviteeEmails };
  if (!lowest || lowest.n === 0) return { ...result, ms: Math.round(performance.now() - started) };

  // Cursors only move forward: the changes past this floor are all any follow can be told in this run.
  const floor = Math.min(newest, lowest.told, lowest.alerted);
  // A change of an event that is no longer public is never told (its cursor still moves past it).
  const publicEvents = new Map(
    store.all(store.q.selectFrom('events').select(['id', 'name', 'name_ar']).where('is_public', '=', 1)).map((e) => [e.id, e]),
  );
  const byOrg = new Map<string, Change[]>();
  for (const row of store.all(store.q.selectFrom('update_changes').selectAll().where('id', '>', floor).orderBy('id'))) {
    if (!publicEvents.has(row.event_id)) continue;
    const change: Change = { ...row, kind: row.kind as ChangeKind, data: JSON.parse(row.data_json) };
    pushInto(byOrg, row.org_id, change);
  }
  // The order an email lists a competition's changes in, as the matches are played (a knockout's semi-finals before
  // its final), not as they were found (match ids); a new competition first, its champion last; ties keep that order.
  // Ranked once a run: each email's changes are then put in order by a number.
  const playRank = new Map(
    [...byOrg.values()].flat().sort((a, b) => playOrder(a) - playOrder(b) || compareCodeUnits(playAt(a), playAt(b))).map((c, i) => [c.id, i]),
  );
  const orgs = new Map(
    store.all(store.q.selectFrom('organizations').select(['id', 'name', 'name_ar', 'language', 'timezone'])).map((org) => [
      org.id,
      { ...org, digestHour: o.forceDigests ? o.now : latestLocalHour(o.now, o.digestHour, org.timezone) },
    ]),
  );
  const leagues = new Map(store.all(store.q.selectFrom('leagues').select(['id', 'name', 'name_ar'])).map((l) => [l.id, l]));
  const base = o.publicBaseUrl.replace(/\/$/, '');
  type Org = NonNullable<ReturnType<typeof orgs.get>>;
  /** Queues a follow's emails of its decision and moves its cursors; how many emails. */
  const queueUpdates = (f: FollowState & { email: string; language: Language | null }, d: Decision<Change>, org: Org): number => {
    let emails = 0;
    // The language its request asked for (an Arabic-speaking family following an English club), else the organization's.
    const language = f.language ?? (org.language as Language);
    const league = f.league_id ? leagues.get(f.league_id) : undefined;
    for (const [kind, decided] of [['alert', d.alert], ['digest', d.digest]] as const) {
      // One line per match: its net change (moved and moved back is no news; the email may then have none to send),
      // then its names in the follow's language (changeIn: after netting, so that a line whose first change was found
      // before other names were kept is told in the organization's language whole).
      const told = withoutMootChanges(netChanges(decided)).map((c) => ({ ...c, data: changeIn(c.data, language) }));
      if (told.length === 0) continue;
      // The competitions in the order their first change was found, each one's changes in play order.
      const competitions = new Map<string, TemplateData<'follow-updates'>['competitions'][number]>();
      for (const c of told) {
        if (competitions.has(c.event_id)) continue;
        // In the email's language, its Arabic name where the organization gave one (a native Arabic review: an Arabic
        // digest headed each competition with its English name), as its match lines name the teams and rounds.
        const event = publicEvents.get(c.event_id)!;
        competitions.set(c.event_id, { name: localizedName(event.name, event.name_ar, language), eventId: c.event_id, calendarUrl: `${base}/api/v0/calendar/${c.event_id}`, changes: [] });
      }
      // In play order: a copy, once the id order of `told` has set the competitions' order.
      for (const c of [...told].sort((a, b) => playRank.get(a.id)! - playRank.get(b.id)!)) {
        const { before, after, champion = null, matches, next_kickoff, adjustment } = c.data;
        competitions.get(c.event_id)!.changes.push({
          kind: c.kind, before, after, champion, ...(matches === undefined ? {} : { matches, nextKickoff: next_kickoff ?? null }), ...(adjustment ? { adjustment } : {}),
        });
      }
      queueEmail(store, {
        to: f.email,
        template: 'follow-updates',
        tag: `follow-${kind}`,
        createdAt: o.now,
        data: {
          followId: f.id, language, timeZone: org.timezone, kind,
          organizationName: localizedName(org.name, org.name_ar, language),
          leagueName: league ? localizedName(league.name, league.name_ar, language) : null,
          competitions: [...competitions.values()],
        },
      });
      emails++;
    }
    if (d.told_through !== f.told_through || d.alerted_through !== f.alerted_through) {
      store.run(store.q.updateTable('follows').set({ told_through: d.told_through, alerted_through: d.alerted_through }).where('id', '=', f.id));
    }
    return emails;
  };

  const size = o.batchSize ?? 500;
  const columns = ['id', 'org_id', 'league_id', 'email', 'told_through', 'alerted_through', 'language'] as const;
  /** Follows a batch has decided, with the others of their address and organization (maybe of a later batch). */
  const decided = new Set<string>();
  // Each batch reads its follows inside its own write transaction, not at the start of the run: a run begun at the
  // same time (the server's and an operator's `npm run updates`) that moved their cursors, or an unsubscribe that
  // landed meanwhile, is seen, so no change is told twice and no one who left is told anything.
  for (let after = ''; ; ) {
    const batch = store.transaction(() => {
      const follows = store.all(waiting.select(columns).where('id', '>', after).orderBy('id').limit(size));
      // The follows of one address in one organization are decided together (tell.ts decideTogether), in the same
      // transaction: the others of each address come along, whichever batch their ids fall in.
      const others = follows.length === 0 ? [] : store.all(
        waiting.select(columns).where('email', 'in', [...new Set(follows.map((f) => f.email))]).where('id', 'not in', follows.map((f) => f.id)),
      );
      const together = new Map<string, typeof follows>();
      for (const f of [...follows, ...others]) {
        if (!decided.has(f.id)) pushInto(together, `${f.org_id}\n${f.email}`, f);
      }
      for (const group of together.values()) {
        const org = orgs.get(group[0]!.org_id);
        if (!org) continue;
        const decisions = decideTogether(group, byOrg.get(org.id) ?? [], o.now, org.digestHour, o.alertDelayMs, newest);
        group.forEach((f, i) => {
          decided.add(f.id);
          result.follows++;
          result.emails += queueUpdates(f, decisions[i]!, org);
        });
      }
      return follows;
    });
    if (batch.length < size) break;
    after = batch.at(-1)!.id;
  }
  return { ...result, ms: Math.round(performance.now() - started) };
}

export function formatUpdates(r: UpdatesResult): string {
  return `updates: ${r.changes} changes found, ${r.follows} follows considered, ${r.emails} emails queued, ${r.ms} ms`;
}

// A competition's own news first; its matches in play order; then points adjustments, and its champion last.
const playOrder = (c: Change) => {
  if (c.kind === 'new_competition' || c.kind === 'competition_cancelled' || c.kind === 'competition_reinstated') return 0;
  return c.kind === 'adjustment' ? 2 : c.kind === 'champion' ? 3 : 1;
};
// An ISO instant sorts as text; a match without a kickoff after every dated one.
const playAt = (c: Change) => (c.data.after ?? c.data.before)?.kickoff_at ?? '\uffff';
