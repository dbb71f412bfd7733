// The date of birth is checked against the registration day in the organization's time zone, on the application's
// clock: the request schema, the endpoint and the service together (src/registrations/rules.ts dateOfBirthProblem).
// Before, the schema compared it with the UTC day of the machine's clock: a player born today in Amman, registered
// at 01:30 there (22:30 UTC the day before), was refused as born in the future.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import * as register from '../src/pages/api/v0/register.js';
import { tempDir } from './support/db.js';
import { callEndpoint, inProcessApp, type InProcessApp } from './support/in-process.js';

let t: InProcessApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  t = undefined;
});

/** The small fixture with its organization in `timezone`. */
function fixtureIn(timezone: string): string {
  const f = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/import-small.json'), 'utf8'));
  f.organizations[0].timezone = timezone;
  const file = path.join(tempDir('competitions-fixture-'), 'import.json');
  fs.writeFileSync(file, JSON.stringify(f));
  return file;
}

it.each([
  // 01:30 on 26 November in Amman (UTC+3), a player born there at 01:00.
  ['Asia/Amman', '2026-11-25T22:30:00Z', '2026-11-26', 201],
  ['Asia/Amman', '2026-11-25T22:30:00Z', '2026-11-27', 422],
  // 22:00 on 25 November in New York: the 26th is tomorrow there, though it is today in UTC.
  ['America/New_York', '2026-11-26T03:00:00Z', '2026-11-26', 422],
  ['America/New_York', '2026-11-26T03:00:00Z', '2026-11-25', 201],
])('an organization in %s, at %s: born %s → %i', async (timezone, at, dateOfBirth, status) => {
  // One clock, as in production: the machine's and the application's.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(at));
  t = await inProcessApp({ mail: false, importFile: fixtureIn(timezone), now: () => new Date() });
  const body = { org_id: 'riverside', name: 'Newborn Player', email: 'parent@example.org', date_of_birth: dateOfBirth };
  const request = new Request('https://competitions.example/api/v0/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const res = await callEndpoint(register.POST, request, t.app);
  const answer = (await res.json()) as { errors?: { field: string; message: string }[] };
  expect(res.status, JSON.stringify(answer)).toBe(status);
  if (status === 422) expect(answer.errors).toEqual([{ field: 'date_of_birth', message: 'must be between 1900-01-01 and today' }]);
});
