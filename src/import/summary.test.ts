import { describe, expect, it } from 'vitest';
import type { ImportCounts, RemovedMatch } from './load.js';
import { importSummary } from './summary.js';

const counts = (over: Partial<ImportCounts> = {}): ImportCounts => ({
  organizations: 1, leagues: 1, divisions: 1, teams: 3, members: 2, events: 2, matches: 4, changed: 5, removed: 2,
  endedFollows: [], removedMatches: [], visibility: [], removedMembers: [], outOfMatchMembers: [], newTeams: [], openBrackets: [], beatenPlaying: [], results: [], matchChanges: [], teamChanges: [], readdressedMembers: [],
  eventStatuses: [], eventCities: [], adjustments: [], ...over,
});
const match = (over: Partial<RemovedMatch>): RemovedMatch => ({
  match: 'rs-m1', home: 'Riverside Lions', away: 'Mill Lane United', kickoff: '2026-09-06T10:00:00Z', result: null, invitations: 0, ...over,
});

describe('importSummary', () => {
  it.each<[string, Partial<ImportCounts>, boolean, string[]]>([
    ['an import', {}, false, ['f.json: imported 1 organization, 1 league, 2 competitions, 4 matches, 3 teams, 2 members, 1 division (5 records written, 2 removed)']],
    ['a check', {}, true, ['f.json: valid; nothing written (--check). Importing it would load 1 organization, 1 league, 2 competitions, 4 matches, 3 teams, 2 members, 1 division (5 records written, 2 removed)']],
    ['a league removed with its follows', { endedFollows: [{ league: 'rs-sunday', name: 'Sunday League', follows: 2 }] }, false, [
      'league "rs-sunday" (Sunday League) is no longer in the file: its 2 follows ended with it, and their followers are told nothing more (to stop publishing a league and keep its followers, make its competitions private instead)',
    ]],
    ['the same, checked', { endedFollows: [{ league: 'rs-sunday', name: 'Sunday League', follows: 1 }] }, true, [
      'league "rs-sunday" (Sunday League) is no longer in the file: its 1 follow would end with it, and its follower would be told nothing more (to stop publishing a league and keep its followers, make its competitions private instead)',
    ]],
    // A season review's cancelled competition told every invited member and follower, and --check had said nothing.
    ['a competition cancelled, checked', { eventStatuses: [{ event: 'rs-shield', name: 'Shield', before: 'in_progress', after: 'cancelled' }] }, true, [
      'competition "rs-shield" (Shield): status in_progress → cancelled: its matches not played would show as cancelled in its calendars, and its invited members and followers would be told (if it is public)',
    ]],
    ['a competition back on', { eventStatuses: [{ event: 'rs-shield', name: 'Shield', before: 'cancelled', after: 'in_progress' }] }, false, [
      'competition "rs-shield" (Shield): status cancelled → in_progress: its matches are back on in its calendars, and its invited members and followers are told (if it is public)',
    ]],
    ['a league completed', { eventStatuses: [{ event: 'rs-prem', name: 'Premier', before: 'in_progress', after: 'completed' }] }, false, [
      'competition "rs-prem" (Premier): status in_progress → completed: a league\'s top club becomes its champion, and its followers are told (if it is public)',
    ]],
    ['a competition started', { eventStatuses: [{ event: 'rs-prem', name: 'Premier', before: 'scheduled', after: 'in_progress' }] }, true, [
      'competition "rs-prem" (Premier): status scheduled → in_progress',
    ]],
    // A review's organizer moved a league's city: the matches it moved had no line.
    ['a city moved, checked', { eventCities: [{ event: 'rs-prem', name: 'Premier', before: 'Leeds', after: 'York', matches: 12 }] }, true, [
      'competition "rs-prem" (Premier): city Leeds → York: every dated match\'s place in its calendars would change, and its 12 matches without a venue of their own would take the new city as venue',
    ]],
    ['a city given, one match without a venue', { eventCities: [{ event: 'rs-prem', name: 'Premier', before: null, after: 'York', matches: 1 }] }, false, [
      'competition "rs-prem" (Premier): city none → York: every dated match\'s place in its calendars changes, and its one match without a venue of its own takes the new city as venue',
    ]],
    ['a city moved, every match with its own venue', { eventCities: [{ event: 'rs-prem', name: 'Premier', before: 'Leeds', after: 'York', matches: 0 }] }, false, [
      'competition "rs-prem" (Premier): city Leeds → York: every dated match\'s place in its calendars changes',
    ]],
    ['a deduction', { adjustments: [{ event: 'rs-prem', name: 'Premier', team: 'rs-lions', teamName: 'Riverside Lions', before: 0, after: -3, reasons: ['Fielded an ineligible player'] }] }, false, [
      'competition "rs-prem" (Premier): points adjustment of team "rs-lions" (Riverside Lions): none → \u22123 points (Fielded an ineligible player); its followers are told (if it is public)',
    ]],
    ['a bonus point withdrawn, checked', { adjustments: [{ event: 'rs-prem', name: 'Premier', team: 'rs-mill', teamName: null, before: 1, after: 0, reasons: [] }] }, true, [
      'competition "rs-prem" (Premier): points adjustment of team "rs-mill": +1 point → none; its followers would be told (if it is public)',
    ]],
    ['a match removed with its result', { removedMatches: [match({ result: '2-1' })] }, false, [
      'match "rs-m1" (Riverside Lions v Mill Lane United, 2026-09-06T10:00:00Z) is no longer in the file: removed with its result (2-1)',
    ]],
    ['a walkover of an undecided slot, without kickoff', { removedMatches: [match({ away: null, kickoff: null, result: 'walkover: Riverside Lions' })] }, false, [
      'match "rs-m1" (Riverside Lions v to be decided) is no longer in the file: removed with its result (walkover: Riverside Lions)',
    ]],
    ['a match removed with its invitations', { removedMatches: [match({ invitations: 3 })] }, false, [
      'match "rs-m1" (Riverside Lions v Mill Lane United, 2026-09-06T10:00:00Z) is no longer in the file: removed with its 3 RSVP invitations, and the invited members are not told (to tell them, keep it in the file with "status": "cancelled")',
    ]],
    ['the same, checked', { removedMatches: [match({ invitations: 1 })] }, true, [
      'match "rs-m1" (Riverside Lions v Mill Lane United, 2026-09-06T10:00:00Z) is no longer in the file: it would be removed with its 1 RSVP invitation, and the invited members would not be told (to tell them, keep it in the file with "status": "cancelled")',
    ]],
    ['a played match with invitations: no advice to cancel it', { removedMatches: [match({ result: '0-0', invitations: 2 })] }, false, [
      'match "rs-m1" (Riverside Lions v Mill Lane United, 2026-09-06T10:00:00Z) is no longer in the file: removed with its result (0-0) and its 2 RSVP invitations, and the invited members are not told',
    ]],
    // A member's id corrected in a spreadsheet: a new member, and the old one's answers gone from the counts.
    ['a member removed with invitations and answers', { removedMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', invitations: 2, answers: 1 }] }, false, [
      'member "rs-lions-1" (Sam Carter) is no longer in the file: removed with their RSVP invitations to 2 matches (1 answered); they are no longer counted in those matches\' answers (a member whose id changed is a new member: invite them again)',
    ]],
    ['the same, checked, none answered', { removedMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', invitations: 1, answers: 0 }] }, true, [
      'member "rs-lions-1" (Sam Carter) is no longer in the file: they would be removed with their RSVP invitation to 1 match; they would no longer be counted in that match\'s answers (a member whose id changed is a new member: invite them again)',
    ]],
    // An organizer's review: --check gave counts, and nothing said a competition was leaving the public.
    ['a competition made private, one removed, one published, checked', { visibility: [
      { event: 'rs-cup', name: 'Cup', now: 'private' }, { event: 'rs-old', name: 'Old Cup', now: 'removed' }, { event: 'rs-new', name: 'New Cup', now: 'public' },
    ] }, true, [
      'competition "rs-cup" (Cup) would be made private: its reads would leave the public, and its calendar\'s subscribers would see it emptied, at the next render; a CDN in front may serve its copy up to 11 minutes more, a day while it cannot reach us (README: "Taking a read down at once")',
      'competition "rs-old" (Old Cup) is no longer in the file: it would be removed, its reads would leave the public, and its calendar\'s subscribers would see it emptied, at the next render; a CDN in front may serve its copy up to 11 minutes more, a day while it cannot reach us (README: "Taking a read down at once")',
      'competition "rs-new" (New Cup) would be public: its reads and calendar would be published at the next render (the server renders every REGENERATE_EVERY_S, a minute by default)',
    ]],
    ['results entered, changed and cleared', { results: [
      { match: 'rs-m1', home: 'Riverside Lions', away: 'Mill Lane United', before: null, after: '2-1' },
      { match: 'rs-m2', home: 'Riverside Lions', away: null, before: '1-1 (4-3 on penalties)', after: 'walkover: Riverside Lions' },
      { match: 'rs-m3', home: 'A', away: 'B', before: '0-0', after: null },
    ] }, false, [
      'result of match "rs-m1" (Riverside Lions v Mill Lane United): none → 2-1',
      'result of match "rs-m2" (Riverside Lions v to be decided): 1-1 (4-3 on penalties) → walkover: Riverside Lions',
      'result of match "rs-m3" (A v B): 0-0 → none',
    ]],
    ['a season of results: the first 20, then how many more', { results: Array.from({ length: 23 }, (_, i) => ({ match: `m${i}`, home: 'A', away: 'B', before: null, after: '1-0' })) }, true, [
      ...Array.from({ length: 20 }, (_, i) => `result of match "m${i}" (A v B): none → 1-0`),
      '… and 3 other results would change',
    ]],
    // An organizer's review: --check said "6 rows written" of a file that moved, postponed and cancelled matches.
    ['kickoffs, venues, postponements and cancellations', { matchChanges: [
      { match: 'rs-m1', home: 'Riverside Lions', away: 'Mill Lane United', changes: ['kickoff Saturday 6 September 2026, 11:00 BST → Sunday 7 September 2026, 15:00 BST', 'venue Mill Lane → Riverside Park'] },
      { match: 'rs-m2', home: 'A', away: 'B', changes: ['scheduled → postponed'] },
    ] }, true, [
      'match "rs-m1" (Riverside Lions v Mill Lane United): kickoff Saturday 6 September 2026, 11:00 BST → Sunday 7 September 2026, 15:00 BST; venue Mill Lane → Riverside Park',
      'match "rs-m2" (A v B): scheduled → postponed',
    ]],
    ['a season of moves: the first 20, then how many more', { matchChanges: Array.from({ length: 21 }, (_, i) => ({ match: `m${i}`, home: 'A', away: 'B', changes: ['scheduled → cancelled'] })) }, false, [
      ...Array.from({ length: 20 }, (_, i) => `match "m${i}" (A v B): scheduled → cancelled`),
      '… and 1 other match changed',
    ]],
    // An RSVP review: a corrected address left the invitation at the old one, and its player was the one not told of a move.
    ['a member invited to a match to come, their address corrected', { readdressedMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', now: 'changed', matches: ['rs-m3'] }] }, false, [
      'member "rs-lions-1" (Sam Carter): address changed; their RSVP invitation to match "rs-m3" no longer reaches them; to invite them at the new one: npm run invite -- --match rs-m3',
    ]],
    ['the same, checked, two matches', { readdressedMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', now: 'changed', matches: ['rs-m3', 'rs-m4'] }] }, true, [
      'member "rs-lions-1" (Sam Carter): address would change; their RSVP invitations to matches "rs-m3", "rs-m4" would no longer reach them; to invite them at the new one: npm run invite -- --match rs-m3, then npm run invite -- --match rs-m4',
    ]],
    ['an address removed', { readdressedMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', now: 'removed', matches: ['rs-m3'] }] }, false, [
      'member "rs-lions-1" (Sam Carter): address removed; their RSVP invitation to match "rs-m3" no longer reaches them: they hear nothing more of it',
    ]],
    // An RSVP review: a member moved to another team was still told of the old team's match, their answer still counted.
    ['a member invited to a match to come, now in neither of its teams', { outOfMatchMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', team: 'Harbour Rovers', moved: true, matches: ['rs-m3'], answers: 0, told: 1 }] }, false, [
      'member "rs-lions-1" (Sam Carter, now of Harbour Rovers) is in neither team of match "rs-m3": their RSVP invitation is withdrawn, and they are told so by email',
    ]],
    ['the same, checked, two matches, one answered, one told', { outOfMatchMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', team: 'Harbour Rovers', moved: true, matches: ['rs-m3', 'rs-m4'], answers: 1, told: 1 }] }, true, [
      'member "rs-lions-1" (Sam Carter, now of Harbour Rovers) is in neither team of matches "rs-m3", "rs-m4": their RSVP invitations (1 answered: no longer counted) would be withdrawn, and they would be told so by email (of 1)',
    ]],
    ['their team out of the match, no invitation email had reached them', { outOfMatchMembers: [{ member: 'rs-lions-1', name: 'Sam Carter', team: 'Riverside Lions', moved: false, matches: ['rs-m3'], answers: 0, told: 0 }] }, false, [
      'member "rs-lions-1" (Sam Carter, of Riverside Lions) is in neither team of match "rs-m3": their RSVP invitation is withdrawn, and they hear nothing more of it (no invitation email had gone to their address)',
    ]],
    // A season review: a corrected quarter-final gave the semi-final's slot another team, and its other side was never told.
    ['a match to come with other teams now, its invited members told, the new team not invited', { newTeams: [{ match: 'cup-sf1', home: 'Riverside', away: 'Hillside', before: { home: 'Riverside', away: 'Old Mill' }, told: 9, uninvited: ['Hillside'] }] }, false, [
      'match "cup-sf1" is Riverside v Hillside (was Riverside v Old Mill): 9 invited members are told by email whom they play; the players of Hillside are not invited (npm run invite -- --match cup-sf1)',
    ]],
    ['the same, checked, a slot decided, one member told', { newTeams: [{ match: 'cup-sf1', home: 'Riverside', away: 'Hillside', before: { home: 'Riverside', away: null }, told: 1, uninvited: [] }] }, true, [
      'match "cup-sf1" would be Riverside v Hillside (was Riverside v to be decided): 1 invited member would be told by email whom they play',
    ]],
    ['a slot undecided again, nobody told', { newTeams: [{ match: 'cup-sf1', home: 'Riverside', away: null, before: { home: 'Riverside', away: 'Old Mill' }, told: 0, uninvited: [] }] }, false, [
      'match "cup-sf1" is Riverside v to be decided (was Riverside v Old Mill)',
    ]],
    // A season review: a cup drawn round by round could not be entered; now it can, and is said to be open.
    ['a cup whose later rounds are not drawn yet', { openBrackets: [{ event: 'cup', name: 'County Cup', matches: ['qf1', 'qf2'] }] }, true, [
      'competition "cup" (County Cup): no champion until its later rounds are entered: the winners of "qf1", "qf2" play no later match yet',
    ]],
    ['one tie left', { openBrackets: [{ event: 'cup', name: 'County Cup', matches: ['sf2'] }] }, false, [
      'competition "cup" (County Cup): no champion until its later rounds are entered: the winner of "sf2" plays no later match yet',
    ]],
    // A review's cup took a team beaten in round one into round two, unsaid.
    ['a beaten team named in a later round', { beatenPlaying: [{ event: 'cup', name: 'County Cup', team: 'Dunmore Athletic', beatenIn: 'r1-2', playsIn: 'r2-1' }] }, false, [
      'competition "cup" (County Cup): Dunmore Athletic lost match "r1-2" but plays in match "r2-1" (check the teams of "r2-1", or the result of "r1-2")',
    ]],
    ['teams renamed and removed', { teamChanges: [
      { team: 'rs-lions', before: 'Riverside Lions', after: 'Riverside Lions FC / أسود ريفرسايد' },
      { team: 'rs-old', before: 'Old Town', after: null },
    ] }, true, [
      // Marked left to right around the arrow: an Arabic name after it no longer reads first (src/text/arrow.ts).
      'team "rs-lions" would be renamed: Riverside Lions \u200E→\u200E Riverside Lions FC / أسود ريفرسايد',
      'team "rs-old" (Old Town) is no longer in the file: it would be removed',
    ]],
    ['a member given an address, their team\'s matches with invitations', { readdressedMembers: [{ member: 'rs-lions-2', name: 'Tariq Hamdan', now: 'added', matches: ['rs-m3', 'rs-m4'] }] }, true, [
      'member "rs-lions-2" (Tariq Hamdan): address would be added; their team\'s matches "rs-m3", "rs-m4" have invitations, not theirs: npm run invite -- --match rs-m3, then npm run invite -- --match rs-m4 invites them',
    ]],
    // A first-time organizer's review renamed a club by find-and-replace of its id: its members now a new team's.
    ['a team whose id changed, its members kept', { teamChanges: [{ team: 'westgate-u12', before: 'Westgate Rangers U12', after: null, as: 'westgate-rovers-u12' }] }, false, [
      'team "westgate-u12" (Westgate Rangers U12) is no longer in the file: removed; its members are now team "westgate-rovers-u12"\'s: ' +
        'if that is this team renamed, keep the id "westgate-u12" and change only its name (a new id is a new team: the calendar at ' +
        '/api/v0/teams/westgate-u12/calendar.ics stops for its subscribers, and its opponents\' invited members are told of a new opponent)',
    ]],
  ])('%s', (_label, over, check, lines) => {
    const summary = importSummary('f.json', counts(over), { check });
    expect(Object.keys(over).length > 0 ? summary.slice(1) : summary).toEqual(lines);
  });

  // A copy review: the demo imported again "would load … 119 matches (0 rows written, 0 removed)".
  it.each([
    [false, 'f.json: imported 1 organization, 1 league, 2 competitions, 4 matches, 3 teams, 2 members, 1 division (nothing changed)'],
    [true, 'f.json: valid; nothing written (--check). Importing it would load 1 organization, 1 league, 2 competitions, 4 matches, 3 teams, 2 members, 1 division (nothing would change)'],
  ])('the same file again (checked: %s) says nothing changes', (check, line) => {
    expect(importSummary('f.json', counts({ changed: 0, removed: 0 }), { check })).toEqual([line]);
  });
});
