import { expect, it } from 'vitest';
import { samePlayerAs, type PlayerFacts } from './same-player.js';

const reg = (id: string, name: string, date_of_birth: string | null, email: string): PlayerFacts => ({ id, name, date_of_birth, email });

// A registrations review's secretary found three rows for one child: the phone written another way, then a note added
// with the name in lower case and the address capitalised.
it.each([
  ['the same name and day: one player', [reg('a', 'Bella Hart', '2016-01-02', 'hart@example.org'), reg('b', 'bella  hart', '2016-01-02', 'other@example.org')], { b: 'a' }],
  ['the same name and mailbox, one without a day', [reg('a', 'Bella Hart', null, 'Hart.Family@example.org'), reg('b', 'Bella Hart', '2016-01-02', 'hart.family@Example.org')], { b: 'a' }],
  ['the later one without a day, at the mailbox', [reg('a', 'Bella Hart', '2016-01-02', 'hart@example.org'), reg('b', 'Bella Hart', null, 'HART@example.org')], { b: 'a' }],
  ['two days: two players (a cousin of the same name)', [reg('a', 'Sam Lee', '2014-03-04', 'lee@example.org'), reg('b', 'Sam Lee', '2016-05-06', 'lee@example.org')], {}],
  ['twins: one day, two names', [reg('a', 'Adam Nasser', '2015-06-07', 'n@example.org'), reg('b', 'Amir Nasser', '2015-06-07', 'n@example.org')], {}],
  ['no day, two mailboxes: not said', [reg('a', 'Sam Lee', null, 'a@example.org'), reg('b', 'Sam Lee', null, 'b@example.org')], {}],
  ['three times: each later one names the first', [reg('a', 'Bella Hart', '2016-01-02', 'h@example.org'), reg('b', 'Bella Hart', '2016-01-02', 'h@example.org'), reg('c', 'BELLA HART', null, 'h@example.org')], { b: 'a', c: 'a' }],
  // A review: linked through an undated one, two days were said one player; and a same-day repeat was missed.
  ['an undated one between two days: each linked to what it matches, the two days never to each other',
    [reg('a', 'Sam Lee', '2014-03-04', 'lee@example.org'), reg('b', 'Sam Lee', null, 'lee@example.org'), reg('c', 'Sam Lee', '2016-05-06', 'lee@example.org')], { b: 'a', c: 'b' }],
  ['the same day preferred to an undated one at the mailbox',
    [reg('a', 'Sam Lee', null, 'lee@example.org'), reg('b', 'Sam Lee', '2014-03-04', 'other@example.org'), reg('c', 'Sam Lee', '2014-03-04', 'lee@example.org')], { c: 'b' }],
  ['two Outlook spellings are two mailboxes', [reg('a', 'Sam Lee', null, 'john.smith@outlook.com'), reg('b', 'Sam Lee', null, 'johnsmith@outlook.com')], {}],
  ['Gmail delivers the dots and a +tag alike', [reg('a', 'Sam Lee', null, 'john.smith@gmail.com'), reg('b', 'Sam Lee', null, 'JohnSmith+club@gmail.com')], { b: 'a' }],
  ['Arabic names, spacing aside', [reg('a', 'عمر حداد', '2015-03-04', 'l@example.org'), reg('b', ' عمر  حداد ', '2015-03-04', 'x@example.org')], { b: 'a' }],
])('%s', (_label, rows, expected) => {
  expect(Object.fromEntries(samePlayerAs(rows))).toEqual(expected);
});
