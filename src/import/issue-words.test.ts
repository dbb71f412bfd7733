// The import's words for a field of the wrong type or a field it does not know: an organizer's review read zod's own
// "Invalid input: expected number, received undefined" and had to work out what to write.
import { describe, expect, it } from 'vitest';
import { notATeam } from './issue-words.js';
import { validateImport } from './validate.js';

const file = (match: Record<string, unknown>, event: Record<string, unknown> = {}) => ({
  organizations: [{
    id: 'org', name: 'Org', teams: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }],
    leagues: [{ id: 'lg', name: 'League', events: [{ id: 'ev', name: 'Event', type: 'league', matches: [{ id: 'm1', home: 'a', away: 'b', ...match }], ...event }] }],
  }],
});
const AT = 'organizations[0] ("org").leagues[0] ("lg").events[0] ("ev")';

describe('a wrongly typed field, in words', () => {
  it.each([
    ['a score without its away goals', { status: 'completed', score: { home: 1 } }, {}, `${AT}.matches[0] ("m1").score.away: is required: a number`],
    ['a round in quotes', { round: '2' }, {}, `${AT}.matches[0] ("m1").round: must be a number, not text: write 2 without quotes`],
    ['an adjustment in quotes', {}, { adjustments: [{ team: 'a', points: '-2', reason: 'x' }] }, `${AT}.adjustments[0].points: must be a number, not text: write -2 without quotes`],
    ['public in quotes', {}, { public: 'false' }, `${AT}.public: must be false without quotes`],
    ['a name as a number', {}, { name: 7 }, `${AT}.name: must be text in double quotes, not a number`],
    ['matches as an object', {}, { matches: {} }, `${AT}.matches: must be a list, [ … ], not an object`],
    ['a misspelt field', { kick_off: '2026-09-06T10:00:00Z' }, {}, `${AT}.matches[0] ("m1"): has a field the import format does not know: "kick_off" (did you mean "kickoff"?)`],
    ['two unknown fields', { result: '1-0', fist_leg: 'x' }, {}, `${AT}.matches[0] ("m1"): has fields the import format does not know: "result", "fist_leg" (did you mean "first_leg"?)`],
    // A first-time organizer's review: zod's 'Invalid option: expected one of "scheduled"|…' for a capital letter.
    ['a status with a capital', { status: 'Postponed' }, {}, `${AT}.matches[0] ("m1").status: must be written "postponed" (lower case, as the format lists it: "scheduled", "in_progress", "completed", "postponed", "cancelled")`],
    ['a status in words', { status: 'In progress' }, {}, `${AT}.matches[0] ("m1").status: must be written "in_progress" (lower case, as the format lists it: "scheduled", "in_progress", "completed", "postponed", "cancelled")`],
    ['a status it does not have', { status: 'done' }, {}, `${AT}.matches[0] ("m1").status: must be one of "scheduled", "in_progress", "completed", "postponed", "cancelled"`],
    // And a team id mistyped in a fixture: the id meant.
    ['a team id mistyped', { away: 'bb' }, {}, `${AT}.matches[0] ("m1").away: team "bb" is not a team of this organization (did you mean "b"?)`],
  ])('%s', (_label, match, event, problem) => {
    const result = validateImport(file(match, event));
    expect(result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)).toContain(problem);
  });
});

describe('notATeam: the team meant, not another age group', () => {
  it.each([
    ['alnor-u12', ['alnoor-u12', 'alnoor-u14'], ' (did you mean "alnoor-u12"?)'],
    // Its digits alone differ: another age group, not a typo.
    ['hv-u14', ['hv-u12', 'hv-u13'], ''],
    ['hv-u13-girls', ['hv-u12-girls'], ''],
    ['zzz', ['alnoor-u12'], ''],
  ])('%s among %o', (id, teams, suggestion) => {
    expect(notATeam(id, teams)).toBe(`team "${id}" is not a team of this organization${suggestion}`);
  });
});
