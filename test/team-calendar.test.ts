// A calendar per team (issue 12.5): rendered by the regeneration from a real SQLite file with the demo data, read
// by two independent parsers (ical.js and Python's icalendar), its UIDs those of the competition feeds; a team
// that loses its last public match loses its calendar. The HTTP route is in the contract test (read headers, 404).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { regenerate, type RegenerateOptions } from '../src/publish/regenerate.js';
import { demoDb, type TestDb } from './support/db.js';
import { withoutDirectionMarks } from './support/visible-text.js';

let t: TestDb;
let options: RegenerateOptions;
beforeEach(async () => {
  t = await demoDb();
  options = { artifactsDir: path.join(t.dir, 'artifacts'), publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5 };
  await regenerate(t.db, options);
});
afterEach(async () => t.close());

const read = (rel: string) => fs.readFileSync(path.join(options.artifactsDir, rel), 'utf8');
const vevents = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
const uid = (v: ICAL.Component) => String(v.getFirstPropertyValue('uid'));

/**
 * The VEVENTs of every competition feed whose summary names the team (as home or away, a fed slot included once
 * decided): what its calendar must hold.
 */
function fromCompetitionFeeds(teamName: string): Map<string, ICAL.Component> {
  const out = new Map<string, ICAL.Component>();
  for (const file of fs.readdirSync(path.join(options.artifactsDir, 'api/v0/calendar')).filter((f) => f.endsWith('.ics'))) {
    for (const v of vevents(read(`api/v0/calendar/${file}`))) {
      // A postponed or cancelled match's title begins with its status.
      const title = withoutDirectionMarks(String(v.getFirstPropertyValue('summary'))).replace(/^(Postponed|Cancelled|مؤجلة|ملغاة): /, '');
      const [home, away] = title.split(/ vs | ضد /);
      if (home === teamName || away === teamName) out.set(uid(v), v);
    }
  }
  return out;
}

describe('a team calendar', () => {
  it('holds every public match of the team across its competitions, each VEVENT as in its competition feed', () => {
    const ics = read('api/v0/teams/rsl-rovers.calendar.ics');
    const events = vevents(ics);
    const expected = fromCompetitionFeeds('Riverside Rovers');
    expect(new Set([...expected.keys()].map((u) => u.split('.')[1])).size).toBeGreaterThan(1); // the league and the cup
    expect(events.map(uid).sort()).toEqual([...expected.keys()].sort());
    const cal = new ICAL.Component(ICAL.parse(ics));
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Riverside Rovers');
    // The same VEVENT, property for property, as in the competition's own feed.
    for (const mine of events) expect(mine.toString()).toBe(expected.get(uid(mine))!.toString());
    // In time order.
    const starts = events.map((v) => (v.getFirstPropertyValue('dtstart') as ICAL.Time).toUnixTime());
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('is read by Python icalendar with the same UIDs, in the team\'s language', () => {
    const probe = spawnSync('/usr/bin/python3', ['-c', 'import icalendar'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      console.warn('team-calendar.test: python3-icalendar missing (apt-get install -y python3-icalendar): Python half skipped');
      return;
    }
    const ics = read('api/v0/teams/amm-salt.calendar.ics');
    const script = 'import sys, json\nfrom icalendar import Calendar\ncal = Calendar.from_ical(sys.stdin.buffer.read())\n' +
      'print(json.dumps({"name": str(cal.get("X-WR-CALNAME")), "uids": [str(e.get("UID")) for e in cal.walk("VEVENT")], "summaries": [str(e.get("SUMMARY")) for e in cal.walk("VEVENT")]}))';
    const out = spawnSync('/usr/bin/python3', ['-c', script], { input: ics, encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(0);
    const parsed = JSON.parse(out.stdout) as { name: string; uids: string[]; summaries: string[] };
    expect(parsed.name).toMatch(/[\u0600-\u06ff]/);
    // The name starts with U+200F, as every line of an Arabic feed (a calendar user's review).
    expect(parsed.name.startsWith('\u200F')).toBe(true);
    expect(parsed.uids.sort()).toEqual([...fromCompetitionFeeds(withoutDirectionMarks(parsed.name)).keys()].sort());
    expect(parsed.uids.length).toBeGreaterThan(0);
    expect(parsed.summaries.every((s) => s.includes(' ضد '))).toBe(true);
  });

  it('goes when the team has no public match left, and only then', async () => {
    const team = 'rsl-rovers';
    t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
    await regenerate(t.db, options);
    expect(vevents(read(`api/v0/teams/${team}.calendar.ics`)).every((v) => !uid(v).includes('rsl-cup-2026'))).toBe(true);
    const cupOnly = t.sqlite.prepare(
      `SELECT DISTINCT home_team_id AS id FROM matches WHERE event_id = 'rsl-cup-2026' AND home_team_id IS NOT NULL
       AND home_team_id NOT IN (SELECT m.home_team_id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 AND m.home_team_id IS NOT NULL
                                UNION SELECT m.away_team_id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 AND m.away_team_id IS NOT NULL)`,
    ).all() as { id: string }[];
    for (const { id } of cupOnly) expect(fs.existsSync(path.join(options.artifactsDir, `api/v0/teams/${id}.calendar.ics`))).toBe(false);
    t.sqlite.prepare(`UPDATE events SET is_public = 1 WHERE id = 'rsl-cup-2026'`).run();
    await regenerate(t.db, options);
    expect(vevents(read(`api/v0/teams/${team}.calendar.ics`)).some((v) => uid(v).includes('rsl-cup-2026'))).toBe(true);
  });
});
