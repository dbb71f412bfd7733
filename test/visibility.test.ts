// A league whose competitions are all private, and a division of such a league, are to the public exactly like ids
// that do not exist: the same 422, nothing written, no email that names them.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as follow from '../src/pages/api/v0/follow.js';
import * as register from '../src/pages/api/v0/register.js';
import { callEndpoint, inProcessApp, type InProcessApp } from './support/in-process.js';
import { tempDir } from './support/db.js';

let t: InProcessApp;
let fixtureDir: string;
beforeEach(async () => {
  // The small fixture, plus a league whose only competition is private and a division of it.
  fixtureDir = tempDir('competitions-visibility-');
  const file = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/import-small.json'), 'utf8'));
  const org = file.organizations[0];
  org.leagues.push({
    id: 'rs-secret',
    name: 'Secret Invitational',
    events: [{ id: 'rs-secret-2026', name: 'Secret Invitational 2026', type: 'league', public: false, matches: [] }],
  });
  org.leagues.push({ id: 'rs-empty', name: 'Empty League', events: [] });
  org.divisions.push({ id: 'rs-secret-div', name: 'Secret Division', league: 'rs-secret' }, { id: 'rs-free-div', name: 'Open Trials', league: null });
  const importFile = path.join(fixtureDir, 'file.json');
  fs.writeFileSync(importFile, JSON.stringify(file));
  t = await inProcessApp({ mail: false, importFile, env: { RATE_LIMIT_WRITES_PER_MIN: '0' } });
});
afterEach(async () => {
  await t.close();
  fs.rmSync(fixtureDir, { recursive: true, force: true });
});

const post = (p: string, body: unknown) =>
  new Request(`https://competitions.example${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const written = () => {
  const { store } = t.app;
  const n = (table: 'follows' | 'registrations' | 'email_outbox') =>
    store.first(store.q.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')))!.n;
  return { follows: n('follows'), registrations: n('registrations'), emails: n('email_outbox') };
};

describe('the public sees nothing of a league without a public competition', () => {
  it.each([
    ['follow a league whose competitions are all private', follow.POST, '/api/v0/follow', { org_id: 'riverside', league_id: 'rs-secret', email: 'a@example.org' }, 'league_id'],
    ['follow a league with no competition yet', follow.POST, '/api/v0/follow', { org_id: 'riverside', league_id: 'rs-empty', email: 'a@example.org' }, 'league_id'],
    ['follow a league that does not exist', follow.POST, '/api/v0/follow', { org_id: 'riverside', league_id: 'rs-nothing', email: 'a@example.org' }, 'league_id'],
    ['register into a division of that league', register.POST, '/api/v0/register', { org_id: 'riverside', division_id: 'rs-secret-div', name: 'P', email: 'p@example.org' }, 'division_id'],
    ['register into a division that does not exist', register.POST, '/api/v0/register', { org_id: 'riverside', division_id: 'rs-nothing', name: 'P', email: 'p@example.org' }, 'division_id'],
  ])('%s: the same 422 as an unknown id, nothing written', async (_label, route, p, body, field) => {
    const res = await callEndpoint(route, post(p, body), t.app);
    expect(res.status).toBe(422);
    const problem = (await res.json()) as { errors: { field: string; message: string }[] };
    expect(problem.errors.map((e) => e.field)).toEqual([field]);
    expect(JSON.stringify(problem)).not.toMatch(/Secret|Empty League/);
    expect(written()).toEqual({ follows: 0, registrations: 0, emails: 0 });
  });

  it('the messages for a private league and an unknown one are the same', async () => {
    const message = async (league: string) =>
      ((await (await callEndpoint(follow.POST, post('/api/v0/follow', { org_id: 'riverside', league_id: league, email: 'a@example.org' }), t.app)).json()) as {
        errors: { message: string }[];
      }).errors[0]!.message;
    expect(await message('rs-secret')).toBe(await message('rs-nothing'));
  });

  it('a league with a public competition, and a division of no league, are open as before', async () => {
    expect((await callEndpoint(follow.POST, post('/api/v0/follow', { org_id: 'riverside', league_id: 'rs-sunday', email: 'a@example.org' }), t.app)).status).toBe(200);
    expect((await callEndpoint(register.POST, post('/api/v0/register', { org_id: 'riverside', division_id: 'rs-free-div', name: 'P', email: 'p@example.org' }), t.app)).status).toBe(201);
  });
});
