// Which earlier registration a registration repeats, as its organization's notice says it (repeatOf), on a real SQLite
// file with the real migrations: registrations made through submitRegistration, as the endpoint makes them.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SyncDb } from '../db/sync.js';
import { applyImport, parseImport } from '../import/load.js';
import { migratedDb, type TestDb } from '../../test/support/db.js';
import { repeatOf } from './repeat-of.js';
import { registrationRequestSchema } from './schema.js';
import { submitRegistration } from './service.js';

let t: TestDb;
let store: SyncDb;
const T0 = Date.parse('2026-11-21T12:00:00Z');

beforeEach(async () => {
  t = await migratedDb();
  const file = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../test/fixtures/import-small.json'), 'utf8'));
  // A second organization, which must never learn of the first one's registrations.
  file.organizations.push({ id: 'hillside', name: 'Hillside Youth League', teams: [], leagues: [] });
  const parsed = parseImport(JSON.stringify(file));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  applyImport(t.sqlite, parsed.file);
  store = new SyncDb(t.sqlite);
});
afterEach(async () => t.close());

type Sent = { org_id?: string; name?: string; email?: string; date_of_birth?: string; at?: number };
let n = 0;
/** Registers Omar (his mother's address, his birthday) with Riverside, `sent` changing any of it; its id. */
const register = (sent: Sent = {}): string => {
  const { at = T0, ...fields } = sent;
  const input = registrationRequestSchema.parse({ org_id: 'riverside', name: 'Omar Haddad', email: 'lina@example.org', date_of_birth: '2014-05-04', ...fields });
  return submitRegistration(store, input, { idempotencyKey: `k${n++}`, client: '203.0.113.5', now: new Date(at), receiptsPerDay: 0, noticesPerDay: 0 }).body.id;
};

it.each<[string, Sent[], Sent, 'first' | null, 'date_of_birth' | 'email' | null]>([
  ['the same name and date of birth, another address', [{}], { email: 'father@example.org' }, 'first', 'date_of_birth'],
  ['the same name and address, no date of birth the second time', [{}], { date_of_birth: undefined }, 'first', 'email'],
  // Only one of the two has a date of birth: what they share is the address, not a birthday.
  ['the same name and address, no date of birth the first time', [{ date_of_birth: undefined }], {}, 'first', 'email'],
  ['another name', [{}], { name: 'Omar Khalil' }, null, null],
  ['the first registration', [], {}, null, null],
  // An organization never learns of another's registrations.
  ["the same player with another organization", [{ org_id: 'hillside' }], {}, null, null],
  ['a third registration: it repeats the first, not the second', [{}, { email: 'father@example.org' }], {}, 'first', 'date_of_birth'],
])('%s', (_label, before, sent, repeats, by) => {
  const earlier = before.map((b, i) => register({ at: T0 - (before.length - i) * 60_000, ...b }));
  const id = register(sent);
  const found = repeatOf(store, id);
  expect(found === null ? null : { id: found.id, by: found.by }).toEqual(repeats === null ? null : { id: earlier[0], by });
});
