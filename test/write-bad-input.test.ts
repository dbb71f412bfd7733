// Bad input for every write endpoint: the documented status, a problem body, never a 500, and no change
// to the database when the request failed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './support/http.js';
import { startService, type RunningService } from './support/server.js';
import { dumpTables } from './support/dump.js';
import { plantRsvpToken } from './support/db.js';

const ROOT = path.resolve(import.meta.dirname, '..');
let svc: RunningService;
let db: Database.Database;
let token = '';
const MATCH = 'rsl-prem-r07-2';

beforeAll(async () => {
  svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0', RATE_LIMIT_READS_PER_MIN: '0' });
  db = new Database(svc.env.DATABASE_PATH!);
  db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(new Date(Date.now() + 30 * 86_400_000).toISOString(), MATCH);
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', MATCH], { cwd: ROOT, env: { ...process.env, ...svc.env } });
  // A known token for the respond cases: plant one whose hash we know.
  token = 'K'.repeat(43);
  const first = db.prepare(`SELECT id FROM rsvp_invitations WHERE match_id = ? ORDER BY id LIMIT 1`).get(MATCH) as { id: string };
  plantRsvpToken(db, first.id, token);
  // The invitations go out (and their links are minted) before the cases start: the cases compare the database.
  for (const deadline = Date.now() + 15_000; ; ) {
    const { n } = db.prepare(`SELECT count(*) AS n FROM email_outbox WHERE status = 'pending'`).get() as { n: number };
    if (n === 0) break;
    if (Date.now() > deadline) throw new Error(`${n} emails still queued`);
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(async () => {
  db?.close();
  await svc?.stop();
});

type Body = string | Buffer | Record<string, unknown>;
interface Case {
  label: string;
  path: string;
  body?: Body;
  contentType?: string;
  status: number;
  field?: string;
  /** The problem's detail, exactly. */
  detail?: string;
}

const LONG = 'x'.repeat(10_000);
const FORM = 'application/x-www-form-urlencoded';
const BOUNDARY = 'bad-input-boundary';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
/** A multipart/form-data body of text fields, each value's bytes as given (as pairs: a name may come twice). */
function multipart(fields: Record<string, string | Buffer> | [string, string | Buffer][]): Buffer {
  const parts = (Array.isArray(fields) ? fields : Object.entries(fields)).map(([name, value]) =>
    Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n')]),
  );
  return Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}
const validRegister = { org_id: 'riverside-sfl', name: 'Sam', email: 'sam@example.org' };
const validFollow = { org_id: 'riverside-sfl', email: 'fan@example.org' };

const cases: Case[] = [
  // every endpoint: malformed JSON, wrong content type, a 1 MB body, a JSON array
  ...['/api/v0/register', '/api/v0/follow', '/api/v0/rsvp/respond'].flatMap((p): Case[] => [
    { label: 'malformed JSON', path: p, body: '{"org_id": "riverside-sfl",', status: 400 },
    { label: 'invalid UTF-8', path: p, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), status: 400 },
    { label: 'text/plain', path: p, body: 'org_id=riverside-sfl', contentType: 'text/plain', status: 415 },
    { label: 'no content type', path: p, body: '{}', contentType: '', status: 415 },
    { label: 'a 1 MB body', path: p, body: JSON.stringify({ notes: 'x'.repeat(1 << 20) }), status: 413 },
    { label: 'a JSON array', path: p, body: '[1,2]', status: 422 },
    { label: 'an empty object', path: p, body: {}, status: 422 },
  ]),
  // text that is not Unicode: refused as the body's, never stored with U+FFFD or half a character
  { label: 'a form with a Latin-1 percent-escape', path: '/api/v0/register', body: 'org_id=riverside-sfl&email=formbad2%40example.org&name=Jos%E9', contentType: FORM, status: 400 },
  { label: 'a form with a raw Latin-1 byte', path: '/api/v0/follow', body: Buffer.from('org_id=riverside-sfl&email=fan@ex\xe9mple.org', 'latin1'), contentType: FORM, status: 400 },
  { label: 'a multipart part with a raw 0xE9', path: '/api/v0/register', body: multipart({ org_id: 'riverside-sfl', email: 'mp@example.org', name: Buffer.from('Jos\xe9', 'latin1') }), contentType: MULTIPART, status: 400 },
  ...['name', 'name_ar', 'guardian_name', 'notes'].map((field): Case => ({
    label: `a lone surrogate in ${field}`, path: '/api/v0/register', body: JSON.stringify({ ...validRegister, [field]: 'a' }).replace('"a"', '"a\\ud800b"'), status: 400,
  })),
  { label: 'a lone surrogate in a field name', path: '/api/v0/follow', body: '{"org_id":"riverside-sfl","email":"fan@example.org","x\\udc00":1}', status: 400 },
  // a JSON key twice: which value was meant depends on the reader
  { label: 'org_id twice in JSON', path: '/api/v0/follow', body: '{"org_id":"nope","org_id":"riverside-sfl","email":"twice@example.org"}', status: 400 },
  { label: 'email twice in JSON', path: '/api/v0/register', body: '{"org_id":"riverside-sfl","name":"Sam","email":"a@example.org","email":"b@example.org"}', status: 400 },
  { label: 'status twice in JSON, one escaped', path: '/api/v0/rsvp/respond', body: `{"token":"${'K'.repeat(43)}","status":"yes","st\\u0061tus":"no"}`, status: 400 },
  // A form's field twice, as JSON's key (an RSVP review: `status=yes&status=no` was taken, its first value): refused in
  // the same words, the field named, on every write endpoint and in both form encodings.
  { label: 'status twice in a form', path: '/api/v0/rsvp/respond', body: `token=${'K'.repeat(43)}&status=yes&status=no`, contentType: FORM, status: 400, detail: 'The form has the field "status" twice: send each field once.' },
  { label: 'status twice in a form, one escaped', path: '/api/v0/rsvp/respond', body: `token=${'K'.repeat(43)}&status=no&st%61tus=no`, contentType: FORM, status: 400, detail: 'The form has the field "status" twice: send each field once.' },
  { label: 'org_id twice in a form', path: '/api/v0/follow', body: 'org_id=nope&org_id=riverside-sfl&email=twice-form%40example.org', contentType: FORM, status: 400, detail: 'The form has the field "org_id" twice: send each field once.' },
  { label: 'email twice in a form', path: '/api/v0/register', body: 'org_id=riverside-sfl&name=Sam&email=a%40example.org&email=b%40example.org', contentType: FORM, status: 400, detail: 'The form has the field "email" twice: send each field once.' },
  { label: 'token twice in a multipart form', path: '/api/v0/rsvp/respond', body: multipart([['token', 'K'.repeat(43)], ['status', 'no'], ['token', 'Z'.repeat(43)]]), contentType: MULTIPART, status: 400, detail: 'The form has the field "token" twice: send each field once.' },
  // register
  { label: 'missing name', path: '/api/v0/register', body: { org_id: 'riverside-sfl', email: 'a@example.org' }, status: 422, field: 'name' },
  { label: 'name of wrong type', path: '/api/v0/register', body: { ...validRegister, name: 42 }, status: 422, field: 'name' },
  { label: 'name of 10,000 characters', path: '/api/v0/register', body: { ...validRegister, name: LONG }, status: 422, field: 'name' },
  { label: 'name with a control character', path: '/api/v0/register', body: { ...validRegister, name: 'Sam\u0000' }, status: 422, field: 'name' },
  // Text a stranger types reaches the organization's notice (subject and body): nothing in it may start a line of its
  // own there, or turn the text after it around.
  ...([
    ['name', '\u2028', 'a line separator'], ['name', '\u2029', 'a paragraph separator'], ['name', '\u0085', 'NEL'],
    ['name', '\u009b', 'a C1 control'], ['name', '\u202e', 'a right-to-left override'], ['name', '\u202b', 'a right-to-left embedding'],
    ['name', '\u2067', 'a right-to-left isolate'], ['name', '\u2069', 'a pop directional isolate'],
    ['name_ar', '\u202e', 'a right-to-left override'], ['name_ar', '\u2028', 'a line separator'],
    ['guardian_name', '\u202d', 'a left-to-right override'], ['guardian_name', '\u2028', 'a line separator'],
    ['notes', '\u202e', 'a right-to-left override'], ['notes', '\u0085', 'NEL'],
    // Invisible characters: a second spelling of a name that looks the same, or text no reader sees.
    ['name', '\u200b', 'a zero width space'], ['name', '\ufeff', 'a byte-order mark'], ['name', '\u{e0041}', 'a tag character'],
    ['name_ar', '\u2060', 'a word joiner'], ['guardian_name', '\u3164', 'a Hangul filler'], ['notes', '\u{e0001}', 'a language tag'],
  ] as const).map(([field, ch, what]): Case => ({
    label: `${field} with ${what}`, path: '/api/v0/register', body: { ...validRegister, name: 'Sam', [field]: `Omar${ch}Email: someone@example.org` }, status: 422, field,
  })),
  { label: 'invalid email', path: '/api/v0/register', body: { ...validRegister, email: 'not-an-email' }, status: 422, field: 'email' },
  { label: 'email with a newline', path: '/api/v0/register', body: { ...validRegister, email: 'a@example.org\nBcc: x@example.org' }, status: 422, field: 'email' },
  { label: 'impossible date', path: '/api/v0/register', body: { ...validRegister, date_of_birth: '2015-02-30' }, status: 422, field: 'date_of_birth' },
  { label: 'date in another format', path: '/api/v0/register', body: { ...validRegister, date_of_birth: '04/03/2015' }, status: 422, field: 'date_of_birth' },
  { label: 'future date', path: '/api/v0/register', body: { ...validRegister, date_of_birth: '2999-01-01' }, status: 422, field: 'date_of_birth' },
  { label: 'phone with letters', path: '/api/v0/register', body: { ...validRegister, phone: 'call me' }, status: 422, field: 'phone' },
  { label: 'phone in Devanagari digits', path: '/api/v0/register', body: { ...validRegister, phone: '०७९१२३४५६७' }, status: 422, field: 'phone' },
  { label: 'SQL in org_id', path: '/api/v0/register', body: { ...validRegister, org_id: "x' OR '1'='1" }, status: 422, field: 'org_id' },
  { label: 'unknown org_id', path: '/api/v0/register', body: { ...validRegister, org_id: 'nobody' }, status: 422, field: 'org_id' },
  { label: 'unknown division_id', path: '/api/v0/register', body: { ...validRegister, division_id: 'nope' }, status: 422, field: 'division_id' },
  { label: 'notes of 10,000 characters', path: '/api/v0/register', body: { ...validRegister, notes: LONG }, status: 422, field: 'notes' },
  { label: 'email with a 65-character local part', path: '/api/v0/register', body: { ...validRegister, email: `${'a'.repeat(65)}@example.org` }, status: 422, field: 'email' },
  { label: 'email with a label ending in a hyphen', path: '/api/v0/register', body: { ...validRegister, email: 'user@bad-.com' }, status: 422, field: 'email' },
  { label: 'email with a 64-character label', path: '/api/v0/register', body: { ...validRegister, email: `user@${'a'.repeat(64)}.com` }, status: 422, field: 'email' },
  // follow
  { label: 'follow without email', path: '/api/v0/follow', body: { org_id: 'riverside-sfl' }, status: 422, field: 'email' },
  { label: 'follow with an invalid email', path: '/api/v0/follow', body: { ...validFollow, email: 'fan@@example' }, status: 422, field: 'email' },
  { label: 'follow with a 10,000-character email', path: '/api/v0/follow', body: { ...validFollow, email: `${LONG}@example.org` }, status: 422, field: 'email' },
  { label: 'follow with an unknown org', path: '/api/v0/follow', body: { ...validFollow, org_id: 'nobody' }, status: 422, field: 'org_id' },
  { label: 'follow with a league of another org', path: '/api/v0/follow', body: { ...validFollow, league_id: 'amm-u12' }, status: 422, field: 'league_id' },
  { label: 'follow with an array org', path: '/api/v0/follow', body: { ...validFollow, org_id: ['riverside-sfl'] }, status: 422, field: 'org_id' },
  // respond
  { label: 'respond with an unknown status', path: '/api/v0/rsvp/respond', body: { token: 'K'.repeat(43), status: 'definitely' }, status: 422, field: 'status' },
  { label: 'respond with an unknown token', path: '/api/v0/rsvp/respond', body: { token: 'Z'.repeat(43), status: 'yes' }, status: 404 },
  { label: 'respond with SQL as token', path: '/api/v0/rsvp/respond', body: { token: "' OR 1=1 --", status: 'yes' }, status: 404 },
  { label: 'respond with a 10,000-character token', path: '/api/v0/rsvp/respond', body: { token: LONG, status: 'yes' }, status: 422, field: 'token' },
  { label: 'respond without a token', path: '/api/v0/rsvp/respond', body: { status: 'yes' }, status: 422, field: 'token' },
];

const snapshot = () => {
  const t = dumpTables(db);
  delete t.kysely_migration;
  delete t.kysely_migration_lock;
  // The worker delivers queued mail meanwhile: what must not change is which messages exist.
  t.email_outbox = (t.email_outbox as { id: number }[]).map((m) => m.id);
  return t;
};

describe('bad input', () => {
  it.each(cases)('$path: $label → $status', async (c) => {
    const before = snapshot();
    const body = typeof c.body === 'string' || Buffer.isBuffer(c.body) ? c.body : JSON.stringify(c.body ?? {});
    const headers: Record<string, string> = {};
    const contentType = c.contentType ?? 'application/json';
    if (contentType) headers['Content-Type'] = contentType;
    const res = await request(svc.url + c.path, { method: 'POST', headers, body });
    expect(res.status).toBe(c.status);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const problem = res.json();
    expect(problem).toMatchObject({ type: expect.any(String), title: expect.any(String), status: c.status, detail: expect.any(String) });
    if (c.field) expect(problem.errors.map((e: { field: string }) => e.field)).toContain(c.field);
    if (c.detail) expect(problem.detail).toBe(c.detail);
    expect(snapshot()).toEqual(before);
  });

  it.each([
    ['/api/v0/register', 'gzip', zlib.gzipSync(JSON.stringify({ ...validRegister, email: 'gzip@example.org' }))],
    ['/api/v0/follow', 'gzip', zlib.gzipSync(JSON.stringify({ ...validFollow, email: 'gzip@example.org' }))],
    ['/api/v0/rsvp/respond', 'gzip', zlib.gzipSync(JSON.stringify({ token: 'K'.repeat(43), status: 'no' }))],
    ['/api/v0/register', 'br', zlib.brotliCompressSync(JSON.stringify({ ...validRegister, email: 'br@example.org' }))],
    ['/api/v0/follow', 'deflate, identity', zlib.deflateSync(JSON.stringify({ ...validFollow, email: 'deflate@example.org' }))],
  ])('%s with Content-Encoding: %s → 415 with Accept-Encoding: identity, nothing written', async (target, coding, body) => {
    const before = snapshot();
    const res = await request(svc.url + target, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': coding }, body });
    expect(res.status).toBe(415);
    expect(res.headers['accept-encoding']).toBe('identity');
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json()).toMatchObject({ status: 415, detail: expect.stringContaining('uncompressed') });
    expect(snapshot()).toEqual(before);
  });

  it('refuses a compressed form posted to a page the same way: 415 with Accept-Encoding: identity', async () => {
    const res = await request(`${svc.url}/rsvp`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' },
      body: zlib.gzipSync(`token=${'K'.repeat(43)}&status=no`), contract: false,
    });
    expect(res.status).toBe(415);
    expect(res.headers['accept-encoding']).toBe('identity');
  });

  it('takes a body sent with Content-Encoding: identity', async () => {
    const res = await request(svc.url + '/api/v0/register', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'identity' }, body: JSON.stringify(validRegister),
    });
    expect(res.status).toBe(201);
  });

  it.each([
    ['HTML and SQL meta characters', `<script>alert('x')</script> "; DROP TABLE registrations; --`],
    ['Arabic and emoji', 'يوسف الأحمد ⚽️🇯🇴'],
    ['Arabic with the direction marks Arabic typing uses (RLM, LRM, ALM)', 'يوسف\u200f (Joe)\u200e \u061cالأحمد'],
    ['Persian with a zero width non-joiner, and an emoji of zero width joiners', 'می\u200cخواهم 👨\u200d👩\u200d👧'],
  ])('stores %s in a name exactly as sent', async (_label, name) => {
    const res = await request(svc.url + '/api/v0/register', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...validRegister, name, unknown_field: 1 }),
    });
    expect(res.status).toBe(201);
    expect(db.prepare('SELECT name FROM registrations WHERE id = ?').get(res.json().id)).toEqual({ name });
  });

  it.each([
    ['a form', FORM, 'org_id=riverside-sfl&email=jose%40example.org&name=Jos%C3%A9+%D9%8A%D9%88%D8%B3%D9%81'],
    ['a form of raw UTF-8', FORM, Buffer.from('org_id=riverside-sfl&email=jose@example.org&name=José يوسف', 'utf8')],
    ['a multipart body', MULTIPART, multipart({ org_id: 'riverside-sfl', email: 'jose@example.org', name: 'José يوسف' })],
  ])('stores the UTF-8 text of %s exactly as sent', async (_label, contentType, body) => {
    const res = await request(svc.url + '/api/v0/register', { method: 'POST', headers: { 'Content-Type': contentType }, body });
    expect(res.status).toBe(201);
    expect(db.prepare('SELECT name FROM registrations WHERE id = ?').get(res.json().id)).toEqual({ name: 'José يوسف' });
  });

  it.each([
    ['an Arabic domain under .الاردن', 'fan@مثال.الاردن', 'fan@xn--mgbh0fb.xn--mgbayh7gpa'],
    ["Jordan's ccTLD in ASCII", 'Fan@Example.XN--MGBAYH7GPA', 'fan@example.xn--mgbayh7gpa'],
    ['a Cyrillic domain', 'fan@пример.рф', 'fan@xn--e1afmkfd.xn--p1ai'],
    ['a German IDN', 'fan@bücher.de', 'fan@xn--bcher-kva.de'],
  ])('a follow from an address at %s is taken (200), kept with its domain in ASCII', async (_label, email, kept) => {
    const res = await request(svc.url + '/api/v0/follow', {
      method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify({ org_id: 'riverside-sfl', email }),
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'confirm_email_sent' });
    expect(db.prepare('SELECT email FROM follows WHERE org_id = ? AND email = ?').get('riverside-sfl', kept)).toEqual({ email: kept });
  });

  it('takes phone numbers in Arabic-Indic and Eastern Arabic-Indic digits, kept in ASCII digits', async () => {
    const res = await request(svc.url + '/api/v0/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ ...validRegister, phone: '٠٧٩١٢٣٤٥٦٧', guardian_name: 'Lina', guardian_phone: '+۹۶۲ ۷۹ ۱۲۳ ۴۵۶۷' }),
    });
    expect(res.status).toBe(201);
    expect(db.prepare('SELECT phone, guardian_phone FROM registrations WHERE id = ?').get(res.json().id)).toEqual({
      phone: '0791234567',
      guardian_phone: '+962 79 123 4567',
    });
  });

  it('trims the status of an RSVP answer, as every string field (contract: "Strings are trimmed")', async () => {
    const res = await request(svc.url + '/api/v0/rsvp/respond', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: ` ${'K'.repeat(43)} `, status: ' maybe\n' }),
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ match_id: MATCH, status: 'maybe' });
  });

  it('keeps the process alive: the service still answers', async () => {
    expect((await request(svc.url + '/api/v0/events')).status).toBe(200);
    expect(svc.child.exitCode).toBeNull();
  });
});
