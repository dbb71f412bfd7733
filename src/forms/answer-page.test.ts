import { describe, expect, it } from 'vitest';
import { NO_SUCH_ORGANIZATION, NOT_ITS_DIVISION, NOT_ITS_LEAGUE } from '../errors.js';
import { repeatedFieldDetail } from '../http/body.js';
import { fieldsOfUnreadForm, outcomeOf } from './answer-page.js';

// A form whose body could not be read (not UTF-8, too long, compressed) still names its organization in ASCII: its
// answer page is in that organization's language. Found by a review: an Arabic club's form over 16 KiB got an
// English page first.
describe('fieldsOfUnreadForm: the organization a refused form names', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  const part = (name: string, value: string) => `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  it.each([
    ['urlencoded, first', bytes('org_id=amman-yfa&name=%D8%B9'), '', { org_id: 'amman-yfa' }],
    ['urlencoded, later', bytes('name=x&org_id=amman-yfa'), '', { org_id: 'amman-yfa' }],
    ['urlencoded, windows-1256 escapes around it', bytes('name=%DA%E3%D1&org_id=amman-yfa&notes=%E3'), '', { org_id: 'amman-yfa' }],
    ['raw bytes that are not UTF-8 around it', latin1('name=\xda\xe3\xd1&org_id=amman-yfa'), '', { org_id: 'amman-yfa' }],
    ['sent twice: the first, as a form field', bytes('org_id=amman-yfa&org_id=riverside-sfl'), '', { org_id: 'amman-yfa' }],
    ['a field whose name ends in org_id is another', bytes('parent_org_id=amman-yfa'), '', {}],
    ['not an id', bytes('org_id=amman%20yfa'), '', {}],
    ['text/plain, a line', bytes('name=Sami Haddad\r\norg_id=amman-yfa\r\nnotes=a & b\r\n'), '', { org_id: 'amman-yfa' }],
    ['text/plain, a line that only ends in org_id', bytes('notes=see org_id=amman-yfa\r\n'), '', {}],
    ['multipart', bytes(`${part('name', 'x')}${part('org_id', 'amman-yfa')}--B--\r\n`), '', { org_id: 'amman-yfa' }],
    ['multipart, a part with a type', bytes('--B\r\nContent-Disposition: form-data; name="org_id"\r\nContent-Type: text/plain\r\n\r\namman-yfa\r\n--B--\r\n'), '', { org_id: 'amman-yfa' }],
    ['in the query of the action', undefined, 'org_id=amman-yfa', { org_id: 'amman-yfa' }],
    ['the body before the query', bytes('org_id=riverside-sfl'), 'org_id=amman-yfa', { org_id: 'riverside-sfl' }],
    ['a query that is not an id', undefined, 'org_id=%3Cscript%3E', {}],
    ['nothing', undefined, '', {}],
  ])('%s', (_label, raw, query, fields) => {
    expect(fieldsOfUnreadForm(raw, new URLSearchParams(query))).toEqual(fields);
  });
});

// Which page a 422 gets, by its messages: the form's own set-up (an id we do not have), or what the person typed.
describe('outcomeOf: a 422', () => {
  const problem = (...messages: string[]) => ({ errors: messages.map((message) => ({ field: 'x', message })) });
  it.each([
    ['an organization we do not have', [NO_SUCH_ORGANIZATION], 'misnamed'],
    ['a division we do not have', [NOT_ITS_DIVISION], 'misnamed'],
    // A review: a follow form's league we do not have told its parent to correct a hidden field.
    ['a league we do not have (a follow form)', [NOT_ITS_LEAGUE], 'misnamed'],
    ['a league we do not have, beside an email to correct', ['must be an email address such as name@example.org', NOT_ITS_LEAGUE], 'misnamed'],
    ['an email to correct', ['must be an email address such as name@example.org'], 'fix'],
    ['a division closed', ['stopped taking registrations on Wednesday 1 October 2025, 02:00 GMT+3'], 'closed'],
    ['a division not open yet', ['takes registrations from Thursday 1 January 2026, 00:00 GMT+3'], 'closed'],
    // A review's parent corrected the guardian's fields first, and only then learned the division was closed.
    ['a division closed, beside a guardian to name', ['is required for a player under 18', 'stopped taking registrations on Wednesday 1 October 2025, 02:00 GMT+3'], 'closed'],
  ])('%s', (_label, messages, outcome) => {
    expect(outcomeOf(422, problem(...messages), new Headers())).toBe(outcome);
  });
});

// Which page a 400 gets: a field the form named twice is its set-up (an RSVP review found such a form taken); any
// other 400 is a body we could not read (the encoding its words blame).
describe('outcomeOf: a 400', () => {
  it.each([
    ['a field named twice', { detail: repeatedFieldDetail('phone') }, 'repeated'],
    ['an empty name twice', { detail: repeatedFieldDetail('') }, 'repeated'],
    ['not UTF-8', { detail: 'The body is not valid UTF-8. A form\'s percent-escapes must spell UTF-8 text.' }, 'unreadable'],
    ['a multipart body that cannot be parsed', { detail: 'The multipart body cannot be parsed.' }, 'unreadable'],
    ['no detail', {}, 'unreadable'],
  ])('%s', (_label, body, outcome) => {
    expect(outcomeOf(400, body, new Headers())).toBe(outcome);
  });
});
