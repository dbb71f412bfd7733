// The worked example files the README points organizers to (examples/): each imports, and reads as its README
// paragraph says. Through the real import and regeneration, on a migrated database.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importNotes } from '../src/import/notes.js';
import { parseImport } from '../src/import/load.js';
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
