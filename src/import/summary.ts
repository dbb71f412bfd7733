// What `npm run import` says it did, and what `--check` says an import would do: the same lines, in the tense of each.
// Removals that take something people see or were told of are named one by one (a league's follows, a match's result
// or invitations, a member's invitations and answers): the file is the whole truth, but never silently.
import { changeArrow } from '../text/arrow.js';
import { plural } from '../text/plural.js';
import type { ImportCounts, RemovedMatch } from './load.js';

function matchLabel(m: RemovedMatch): string {
  const teams = `${m.home ?? 'to be decided'} v ${m.away ?? 'to be decided'}`;
  return `match ${JSON.stringify(m.match)} (${teams}${m.kickoff ? `, ${m.kickoff}` : ''})`;
}

/** The summary of an import of `file` (as the organizer typed it), or with `check` of the import it would be. */
export function importSummary(file: string, c: ImportCounts, options: { check?: boolean } = {}): string[] {
  const check = options.check ?? false;
  // "Competition", as every other line names an event (a copy review read "2 events" beside "competition …"); and
  // what changes in words, not rows: the same file again "would load 119 matches (0 rows written)".
  const changed = c.changed === 0 && c.removed === 0 ? (check ? 'nothing would change' : 'nothing changed')
    : `${plural(c.changed, 'record')} written, ${c.removed} removed`;
  const loaded =
    `${plural(c.organizations, 'organization')}, ${plural(c.leagues, 'league')}, ${plural(c.events, 'competition')}, ${plural(c.matches, 'match', 'matches')}, ` +
    `${plural(c.teams, 'team')}, ${plural(c.members, 'member')}, ${plural(c.divisions, 'division')} (${changed})`;
  const lines = [check ? `${file}: valid; nothing written (--check). Importing it would load ${loaded}` : `${file}: imported ${loaded}`];
  for (const { league, name, follows } of c.endedFollows) {
    const ended = check ? 'would end' : 'ended';
    const told = follows === 1 ? (check ? 'its follower would be' : 'its follower is') : check ? 'their followers would be' : 'their followers are';
    lines.push(`league ${JSON.stringify(league)} (${name}) is no longer in the file: its ${plural(follows, 'follow')} ${ended} with it, and ${told} told nothing more (to stop publishing a league and keep its followers, make its competitions private instead)`);
  }
  for (const m of c.removedMatches) {
    const what = [m.result !== null ? `its result (${m.result})` : null, m.invitations > 0 ? `its ${plural(m.invitations, 'RSVP invitation')}` : null].filter((x) => x !== null);
    let line = `${matchLabel(m)} is no longer in the file: ${check ? 'it would be removed' : 'removed'} with ${what.join(' and ')}`;
    if (m.invitations > 0) {
      line += `, ${check ? 'and the invited members would not be told' : 'and the invited members are not told'}`;
      // A played match cannot be cancelled: its invitations are history, and nobody waits to hear of it.
      if (m.result === null) line += ' (to tell them, keep it in the file with "status": "cancelled")';
    }
    lines.push(line);
  }
  // A person, not "it" (a copy review).
  for (const m of c.removedMembers) {
    const one = m.invitations === 1;
    const answered = m.answers === 0 ? '' : one ? ' (answered)' : ` (${m.answers} answered)`;
    lines.push(
      `member ${JSON.stringify(m.member)} (${m.name}) is no longer in the file: ${check ? 'they would be removed' : 'removed'} with their ` +
        `RSVP invitation${one ? '' : 's'} to ${plural(m.invitations, 'match', 'matches')}${answered}; they ${check ? 'would no longer be' : 'are no longer'} counted in ` +
        `${one ? "that match's" : "those matches'"} answers (a member whose id changed is a new member: invite them again)`,
    );
  }
  for (const m of c.outOfMatchMembers) {
    const many = m.matches.length > 1;
    const answered = m.answers === 0 ? '' : ` (${m.answers} answered: no longer counted)`;
    // Told by email when an invitation email had reached them (src/rsvp/tell-invitees.ts tellWithdrawn).
    const told = m.told === 0 ? `they hear nothing more of ${many ? 'them' : 'it'} (no invitation email had gone to their address)`
      : `they ${check ? 'would be' : 'are'} told so by email${m.told < m.matches.length ? ` (of ${m.told})` : ''}`;
    lines.push(
      `member ${JSON.stringify(m.member)} (${m.name}, ${m.moved ? 'now of' : 'of'} ${m.team}) is in neither team of match${many ? 'es' : ''} ` +
        `${m.matches.map((id) => JSON.stringify(id)).join(', ')}: their RSVP invitation${many ? 's' : ''}${answered} ` +
        `${check ? 'would be' : many ? 'are' : 'is'} withdrawn, and ${told}`,
    );
  }
  // Who plays a match with invitations, changed: who is told, and whose players are not invited (the organizer's to do).
  for (const m of c.newTeams) {
    const side = (name: string | null) => name ?? 'to be decided';
    const told = m.told === 0 ? null : `${plural(m.told, 'invited member')} ${check ? 'would be' : m.told === 1 ? 'is' : 'are'} told by email whom they play`;
    const invite = m.uninvited.length === 0 ? null
      : `the players of ${m.uninvited.join(' and ')} ${check ? 'would not be' : 'are not'} invited (npm run invite -- --match ${m.match})`;
    const parts = [told, invite].filter((x) => x !== null);
    lines.push(
      `match ${JSON.stringify(m.match)} ${check ? 'would be' : 'is'} ${side(m.home)} v ${side(m.away)} (was ${side(m.before.home)} v ${side(m.before.away)})` +
        (parts.length > 0 ? `: ${parts.join('; ')}` : ''),
    );
  }
  // A corrected address leaves the invitation at the old one: the member hears nothing more of the match until invited
  // again (an RSVP review's corrected typo made its player the one person not told of a move).
  for (const m of c.readdressedMembers) {
    const many = m.matches.length > 1;
    const matches = m.matches.map((id) => JSON.stringify(id)).join(', ');
    const invite = m.matches.map((id) => `npm run invite -- --match ${id}`).join(', then ');
    if (m.now === 'added') {
      lines.push(`member ${JSON.stringify(m.member)} (${m.name}): address ${check ? 'would be added' : 'added'}; their team's match${many ? 'es' : ''} ` +
        `${matches} ${many ? 'have' : 'has'} invitations, not theirs: ${invite} invites them`);
      continue;
    }
    const what = m.now === 'removed' ? (check ? 'would be removed' : 'removed') : check ? 'would change' : 'changed';
    const reach = check ? 'would no longer reach' : many ? 'no longer reach' : 'no longer reaches';
    const invitations = `their RSVP invitation${many ? 's' : ''} to match${many ? 'es' : ''} ${matches}`;
    // The command last, on its own (a copy review found it buried mid-sentence).
    const until = m.now === 'removed' ? ': they hear nothing more of it' : `; to invite them at the new one: ${invite}`;
    lines.push(`member ${JSON.stringify(m.member)} (${m.name}): address ${what}; ${invitations} ${reach} them${until}`);
  }
  for (const v of c.visibility) {
    const what = `competition ${JSON.stringify(v.event)} (${v.name})`;
    // When: a review's secretary, the server stopped, read "published" of reads nothing had rendered yet.
    if (v.now === 'public') lines.push(`${what} ${check ? 'would be' : 'is'} public: its reads and calendar ${check ? 'would be' : 'are'} published at the next render (the server renders every REGENERATE_EVERY_S, a minute by default)`);
    else {
      const gone = v.now === 'removed' ? `is no longer in the file: ${check ? 'it would be removed' : 'removed'},` : `${check ? 'would be made' : 'made'} private:`;
      // A CDN's copy outlives the render (max-age, then stale-while-revalidate): a CDN review's varnish served a table
      // made private five minutes after the import. The organizer is told, and where to take it down at once.
      lines.push(`${what} ${gone} its reads ${check ? 'would leave' : 'leave'} the public, and its calendar's subscribers ${check ? 'would see' : 'see'} it emptied, at the next render; a CDN in front may serve its copy up to 11 minutes more, a day while it cannot reach us (README: "Taking a read down at once")`);
    }
  }
  for (const { team, before, after, as } of c.teamChanges) {
    // A team whose id changed is a new team: its calendar's address goes, and its opponents' invited members are told
    // of a new opponent. Said, with the way to rename it instead.
    const renamed = as === undefined ? ''
      : `; its members are now team ${JSON.stringify(as)}'s: if that is this team renamed, keep the id ${JSON.stringify(team)} and change only its name ` +
        `(a new id is a new team: the calendar at /api/v0/teams/${team}/calendar.ics ${check ? 'would stop' : 'stops'} for its subscribers, and its opponents' invited members are told of a new opponent)`;
    lines.push(after === null
      ? `team ${JSON.stringify(team)} (${before}) is no longer in the file: ${check ? 'it would be removed' : 'removed'}${renamed}`
      : `team ${JSON.stringify(team)} ${check ? 'would be renamed' : 'renamed'}: ${changeArrow(String(before), after)}`);
  }
  // A competition's status, which tells people at the next updates run: a mistyped "cancelled" went out unseen.
  for (const s of c.eventStatuses) {
    const what = `competition ${JSON.stringify(s.event)} (${s.name}): status ${changeArrow(s.before, s.after)}`;
    const told = check ? 'would be told' : 'are told';
    if (s.after === 'cancelled') lines.push(`${what}: its matches not played ${check ? 'would show' : 'show'} as cancelled in its calendars, and its invited members and followers ${told} (if it is public)`);
    else if (s.before === 'cancelled') lines.push(`${what}: its matches ${check ? 'would be' : 'are'} back on in its calendars, and its invited members and followers ${told} (if it is public)`);
    else if (s.after === 'completed') lines.push(`${what}: a league's top club ${check ? 'would become' : 'becomes'} its champion, and its followers ${told} (if it is public)`);
    else lines.push(what);
  }
  // A city is in every dated match's place in the calendars (venue, city), and is the venue of the matches without
  // one of their own, which the updates job tells as moved; the matches' own lines say only their own venues.
  for (const s of c.eventCities) {
    const what = `competition ${JSON.stringify(s.event)} (${s.name}): city ${changeArrow(s.before ?? 'none', s.after ?? 'none')}: ` +
      `every dated match's place in its calendars ${check ? 'would change' : 'changes'}`;
    const one = s.matches === 1;
    const matches = one ? 'its one match without a venue of its own' : `its ${s.matches} matches without a venue of their own`;
    lines.push(s.matches === 0 ? what : `${what}, and ${matches} ${check ? 'would take' : one ? 'takes' : 'take'} the new city as venue`);
  }
  // A cup drawn round by round: said at each import while a tie's winner goes nowhere yet, so that a tie left out by
  // mistake is seen before the cup ends.
  for (const b of c.openBrackets) {
    const many = b.matches.length > 1;
    lines.push(
      `competition ${JSON.stringify(b.event)} (${b.name}): no champion until its later rounds are entered: the winner${many ? 's' : ''} of ` +
        `${b.matches.map((id) => JSON.stringify(id)).join(', ')} ${many ? 'play' : 'plays'} no later match yet`,
    );
  }
  for (const b of c.beatenPlaying) {
    lines.push(
      `competition ${JSON.stringify(b.event)} (${b.name}): ${b.team} lost match ${JSON.stringify(b.beatenIn)} but plays in match ` +
        `${JSON.stringify(b.playsIn)} (check the teams of "${b.playsIn}", or the result of "${b.beatenIn}")`,
    );
  }
  // Points added or deducted move the table without a result: said, with the reasons it has now, as its followers are.
  for (const a of c.adjustments) {
    const reasons = a.reasons.length > 0 ? ` (${a.reasons.join('; ')})` : '';
    lines.push(
      `competition ${JSON.stringify(a.event)} (${a.name}): points adjustment of team ${JSON.stringify(a.team)}${a.teamName ? ` (${a.teamName})` : ''}: ` +
        `${changeArrow(signedPoints(a.before), signedPoints(a.after))}${reasons}; its followers ${check ? 'would be' : 'are'} told (if it is public)`,
    );
  }
  // The results entered, changed or cleared: a week's results are a few lines; a first import of a season, many.
  shown(lines, c.results, (r) => `result of match ${JSON.stringify(r.match)} (${teams(r)}): ${changeArrow(r.before ?? 'none', r.after ?? 'none')}`, 'other result', check);
  // What calendars and invited members are told of: a kickoff moved, a match postponed, cancelled or back on.
  shown(lines, c.matchChanges, (m) => `match ${JSON.stringify(m.match)} (${teams(m)}): ${m.changes.join('; ')}`, 'other match', check);
  return lines;
}

const teams = (m: { home: string | null; away: string | null }) => `${m.home ?? 'to be decided'} v ${m.away ?? 'to be decided'}`;

/** Lines shown one by one; past them, how many more. */
const SHOWN = 20;

/** The first SHOWN items' lines, then how many more would change or changed: a first import of a season is many. */
function shown<T>(lines: string[], items: readonly T[], line: (item: T) => string, other: string, check: boolean): void {
  for (const item of items.slice(0, SHOWN)) lines.push(line(item));
  if (items.length > SHOWN) lines.push(`… and ${plural(items.length - SHOWN, other)} ${check ? 'would change' : 'changed'}`);
}

/** A points total as the summary says it: "none", "+1 point", "\u22123 points". */
function signedPoints(n: number): string {
  if (n === 0) return 'none';
  return `${n > 0 ? '+' : '\u2212'}${Math.abs(n)} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
}
