import { describe, expect, it } from 'vitest';
import { answerRows, answersCsv, type AnswerRow, type InvitationFacts, type MatchForAnswers } from './answers.js';

const MATCH: MatchForAnswers = { teamIds: ['lions', 'united'], language: 'en', timeZone: 'Asia/Amman' };
const invitation = (i: Partial<InvitationFacts>): InvitationFacts => ({
  team_id: 'lions', team_name: 'Riverside Lions', team_name_ar: 'أسود ريفرسايد', member_id: 'l-1', member_name: 'Sam Carter',
  member_name_ar: 'سام كارتر', member_email: 'sam@example.org', invited_email: 'sam@example.org', response: null, responded_at: null, undeliverable: false, ...i,
});
const row = (r: Partial<AnswerRow>): AnswerRow => ({
  team_id: 'lions', team_name: 'Riverside Lions', member_id: 'l-1', member_name: 'Sam Carter', email: 'sam@example.org',
  answer: null, answered_at: null, state: null, ...r,
});

describe('answerRows: one row per invitation', () => {
  const cases: Array<[string, Partial<InvitationFacts>, Partial<MatchForAnswers>, Partial<AnswerRow>]> = [
    ['not answered: answer and time empty, nothing to say of its state', {}, {}, {}],
    ['answered yes, the time in the organization\'s zone with its offset', { response: 'yes', responded_at: '2026-11-26T22:30:00.015Z' }, {},
      { answer: 'yes', answered_at: '2026-11-27T01:30:00+03:00' }],
    ['answered maybe, in New York (a negative offset, the day before in UTC terms)', { response: 'maybe', responded_at: '2026-11-27T03:00:00.000Z' },
      { timeZone: 'America/New_York' }, { answer: 'maybe', answered_at: '2026-11-26T22:00:00-05:00' }],
    ['answered no, in summer time', { response: 'no', responded_at: '2026-07-04T14:00:59.999Z' }, { timeZone: 'Europe/London' },
      { answer: 'no', answered_at: '2026-07-04T15:00:59+01:00' }],
    ['the same address in other case: it stands', { invited_email: 'Sam@Example.org' }, {}, { email: 'Sam@Example.org' }],
    ['the address corrected since, not yet invited again: the address it went to, and why it will move',
      { invited_email: 'sam@exmaple.org', response: 'yes', responded_at: '2026-11-26T10:00:00Z' }, {},
      { email: 'sam@exmaple.org', answer: 'yes', answered_at: '2026-11-26T13:00:00+03:00', state: 'address_changed' }],
    ['the address removed since', { member_email: null }, {}, { state: 'address_removed' }],
    ['an invitation from before migration 0009 with no address known', { invited_email: null }, {}, { email: null, state: 'address_changed' }],
    ['its address refused by the provider for good (the mail review)', { undeliverable: true }, {}, { state: 'undeliverable' }],
    ['refused, then corrected since: the next invite moves it', { undeliverable: true, member_email: 'sam.carter@example.org' }, {}, { state: 'address_changed' }],
    ['refused, then removed since', { undeliverable: true, member_email: null }, {}, { state: 'address_removed' }],
    ['the member moved to a team not in the match', { team_id: 'rovers', team_name: 'Harbour Rovers' }, {},
      { team_id: 'rovers', team_name: 'Harbour Rovers', state: 'not_in_teams' }],
    ['a slot with no team any more (its feed undecided again)', {}, { teamIds: [] }, { state: 'not_in_teams' }],
    ['an Arabic organization names team and member in Arabic, as its invitations do', {}, { language: 'ar' },
      { team_name: 'أسود ريفرسايد', member_name: 'سام كارتر' }],
    ['an Arabic organization, a name with no Arabic form: as written', { member_name_ar: null, team_name_ar: null }, { language: 'ar' }, {}],
  ];
  it.each(cases)('%s', (_label, facts, match, expected) => {
    expect(answerRows([invitation(facts)], { ...MATCH, ...match })).toEqual([row(expected)]);
  });
});

describe('answerRows: by team, then member name', () => {
  const cases: Array<[string, Partial<InvitationFacts>[], MatchForAnswers['language'], string[]]> = [
    ['teams by name, members by name within each', [
      { team_id: 'united', team_name: 'Mill Lane United', member_id: 'u-2', member_name: 'Zoe Adams' },
      { member_id: 'l-2', member_name: 'amy Brown' },
      { team_id: 'united', team_name: 'Mill Lane United', member_id: 'u-1', member_name: 'Ben Cole' },
      { member_id: 'l-1', member_name: 'Sam Carter' },
    ], 'en', ['u-1', 'u-2', 'l-2', 'l-1']],
    ['two teams of one name apart by id; one name twice by member id', [
      { team_id: 'b', team_name: 'United', member_id: 'b-1' },
      { team_id: 'a', team_name: 'United', member_id: 'a-2' },
      { team_id: 'a', team_name: 'United', member_id: 'a-1' },
    ], 'en', ['a-1', 'a-2', 'b-1']],
    ['in Arabic, by the Arabic names', [
      { member_id: 'l-1', member_name: 'A', member_name_ar: 'ياسر' },
      { member_id: 'l-2', member_name: 'Z', member_name_ar: 'أحمد' },
    ], 'ar', ['l-2', 'l-1']],
  ];
  it.each(cases)('%s', (_label, facts, language, ids) => {
    expect(answerRows(facts.map(invitation), { ...MATCH, teamIds: ['lions', 'united', 'a', 'b'], language }).map((r) => r.member_id)).toEqual(ids);
  });
});

it('answersCsv: the registrations export\'s CSV (header, CRLF, BOM, quotes, a formula neutralised)', () => {
  const csv = answersCsv(answerRows([invitation({ member_name: '=HYPERLINK("http://evil.example")', response: 'yes', responded_at: '2026-11-26T10:00:00Z' })], MATCH));
  expect(csv).toBe(
    '\ufeffteam_id,team_name,member_id,member_name,email,answer,answered_at,state\r\n' +
      `lions,Riverside Lions,l-1,"'=HYPERLINK(""http://evil.example"")",sam@example.org,yes,2026-11-26T13:00:00+03:00,\r\n`,
  );
});
