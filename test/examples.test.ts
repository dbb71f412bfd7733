// The worked example files the README points organizers to (examples/): each imports, and reads as its README
// paragraph says. Through the real import and regeneration, on a migrated database.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importNotes } from '../src/import/notes.js';
import { parseImport } from '../src/import/load.js';
import { followRequestSchema } from '../src/follows/schema.js';
import { registrationRequestSchema } from '../src/registrations/schema.js';
import { migratedDb, type TestDb } from './support/db.js';
import { importAndRender } from './support/rendered.js';

type Json = any; // the rendered reads
const example = (name: string): unknown => JSON.parse(fs.readFileSync(path.resolve('examples', name), 'utf8'));

let t: TestDb;
beforeEach(async () => {
  t = await migratedDb();
});
afterEach(async () => t.close());

describe('examples/', () => {
  // A first-time organizer's review had nothing to hand parents: the README said to post from "an HTML form on another
  // site" and gave none. examples/registration-form.html is one; it must ask only what the API reads, every field it
  // requires, and no more characters than it takes (a browser's maxlength stops the parent where the API would refuse).
  /** An address of `n` characters a mail system takes: a 64-character local part, a domain of labels under 64. */
  const longAddress = (n: number) => {
    let domain = 'org';
    while (65 + domain.length < n) domain = `${'d'.repeat(Math.min(60, n - 65 - domain.length - 1))}.${domain}`;
    return `${'a'.repeat(64)}@${domain}`;
  };

  it.each(['registration-form.html', 'registration-form.ar.html'])('%s names only fields the API reads, every one it requires, each within its length', (file) => {
    const form = fs.readFileSync(path.join('examples', file), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
    const controls = [...form.matchAll(/<(input|select|textarea)\b([^>]*)>/g)].map(([, tag, attrs]) => ({
      tag, name: /\bname="([^"]+)"/.exec(attrs!)?.[1], max: /\bmaxlength="(\d+)"/.exec(attrs!)?.[1], required: /\brequired\b/.test(attrs!),
    }));
    const names = controls.map((c) => c.name);
    const fields = Object.keys(registrationRequestSchema.shape);
    expect(names.filter((n) => n === undefined || !fields.includes(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    for (const required of ['org_id', 'division_id', 'name', 'email', 'date_of_birth']) expect(names).toContain(required);
    expect(/method="post"/.test(form) && /action="[^"]*\/api\/v0\/register"/.test(form)).toBe(true);
    const valid = { org_id: 'org', division_id: 'div', name: 'Sam', email: 'sam@example.org', date_of_birth: '2014-05-06' };
    for (const c of controls.filter((c) => c.max !== undefined)) {
      const at = (n: number) => (c.name === 'email' ? longAddress(n) : c.name!.endsWith('phone') ? `+${'1'.repeat(n - 1)}` : 'x'.repeat(n));
      expect(registrationRequestSchema.safeParse({ ...valid, [c.name!]: at(Number(c.max)) }).success, `${c.name} at its maxlength`).toBe(true);
      expect(registrationRequestSchema.safeParse({ ...valid, [c.name!]: at(Number(c.max) + 1) }).success, `${c.name} past its maxlength`).toBe(false);
    }
  });

  // The follow forms likewise: the fields the follow request reads, its address within what it takes, its language.
  it.each([['follow-form.html', 'en'], ['follow-form.ar.html', 'ar']])('%s names only fields the API reads, and sends its language', (file, language) => {
    const form = fs.readFileSync(path.join('examples', file), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
    const controls = [...form.matchAll(/<(input|select|textarea)\b([^>]*)>/g)].map(([, , attrs]) => ({
      name: /\bname="([^"]+)"/.exec(attrs!)?.[1], value: /\bvalue="([^"]*)"/.exec(attrs!)?.[1], max: /\bmaxlength="(\d+)"/.exec(attrs!)?.[1],
    }));
    const fields = Object.keys(followRequestSchema.shape);
    expect(controls.map((c) => c.name).filter((n) => n === undefined || !fields.includes(n))).toEqual([]);
    expect(controls.map((c) => c.name).sort()).toEqual(['email', 'language', 'org_id']);
    expect(controls.find((c) => c.name === 'language')?.value).toBe(language);
    expect(/method="post"/.test(form) && /action="[^"]*\/api\/v0\/follow"/.test(form)).toBe(true);
    const max = Number(controls.find((c) => c.name === 'email')?.max);
    expect(followRequestSchema.safeParse({ org_id: 'org', email: longAddress(max), language }).success).toBe(true);
    expect(followRequestSchema.safeParse({ org_id: 'org', email: longAddress(max + 1), language }).success).toBe(false);
  });

  it('every example is a valid import with no note', () => {
    const files = fs.readdirSync('examples').filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    const between = new Date('2026-10-06T12:00:00Z'); // between the legs, as the file stands
    for (const f of files) {
      const parsed = parseImport(fs.readFileSync(path.join('examples', f), 'utf8'));
      expect(parsed.ok ? [] : parsed.problems, f).toEqual([]);
      if (parsed.ok) expect(importNotes(parsed.file, between), f).toEqual([]);
    }
  });

  it('groups then a two-legged knockout: the group tables feed the semi-finals, each leg the other way round', async () => {
    const read = await importAndRender(t, example('groups-then-two-legged-knockout.json'));
    const event = 'nyc-u12-2026';
    const standings = JSON.parse(read(`api/v0/events/${event}/standings.json`)) as Json[];
    expect(standings.map((r) => `${r.group_name} ${r.rank} ${r.club_name} ${r.points}`)).toEqual([
      'Group A 1 Millbrook Owls 4', 'Group A 2 Northbrook Hawks 4', 'Group A 3 Eastfield Falcons 0',
      'Group B 1 Oakhill Bears 4', 'Group B 2 Westgate Lions 4', 'Group B 3 Riverbend Tigers 0',
    ]);
    const bracket = JSON.parse(read(`api/v0/events/${event}/bracket.json`)) as Json[];
    const slots = (id: string) => bracket.filter((s) => s.match_id === id).map((s) => `${s.side} ${s.team_name ?? '-'} leg ${s.leg}`);
    // Runner-up B hosts winner A in the first leg; the second leg swaps them.
    expect(slots('nyc-sf1-1')).toEqual(['home Westgate Lions leg 1', 'away Millbrook Owls leg 1']);
    expect(slots('nyc-sf1-2')).toEqual(['home Millbrook Owls leg 2', 'away Westgate Lions leg 2']);
    expect(slots('nyc-sf2-1')).toEqual(['home Northbrook Hawks leg 1', 'away Oakhill Bears leg 1']);
    // The final waits for the second legs.
    expect(slots('nyc-final')).toEqual(['home - leg null', 'away - leg null']);
    const calendar = read(`api/v0/calendar/${event}.ics`).replace(/\r\n[ \t]/g, '');
    expect(calendar).toContain('Semi-finals · Second leg');
  });
});
