// A VEVENT whose content changes must say so: SEQUENCE rises and DTSTAMP moves (RFC 5545 3.8.7.2: without METHOD,
// DTSTAMP is when the information was last revised; RFC 5546 2.1.4: a new DTEND is a new SEQUENCE). Google Calendar
// keeps its copy of a subscribed event whose SEQUENCE did not rise. Much of what a VEVENT says is not in its match's
// row: the team a fed slot names (another match's result, a group's table), the aggregate (the first leg), the
// competition's name, city, match length and rules, a team's name, the organization's language.
// Each case changes one of them in the demo data, regenerates, and checks every VEVENT of every feed.
import fs from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { afterEach, describe, expect, it } from 'vitest';
import { formatResult, MANIFEST, regenerate, type Manifest, type RegenerateOptions } from '../src/publish/regenerate.js';
import { folderRecordOf } from '../src/publish/folder-record.js';
import { openDb } from '../src/db/connect.js';
import { demoDb, migratedDb, type TestDb } from './support/db.js';
import { importFile } from '../src/import/run.js';

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface Seen {
  /** The VEVENT without SEQUENCE and DTSTAMP: what a person reads. */
  content: string;
  sequence: number;
  stamp: number;
}

/** Every VEVENT of every feed (competitions and teams), by file and UID. */
function snapshot(artifactsDir: string): Map<string, Seen> {
  const out = new Map<string, Seen>();
  const feeds = [
    ...fs.readdirSync(path.join(artifactsDir, 'api/v0/calendar')).map((f) => `api/v0/calendar/${f}`),
    ...fs.readdirSync(path.join(artifactsDir, 'api/v0/teams')).map((f) => `api/v0/teams/${f}`),
  ].filter((f) => f.endsWith('.ics'));
  for (const file of feeds) {
    const cal = new ICAL.Component(ICAL.parse(fs.readFileSync(path.join(artifactsDir, file), 'utf8')));
    for (const v of cal.getAllSubcomponents('vevent')) {
      const sequence = Number(v.getFirstPropertyValue('sequence'));
      const stamp = (v.getFirstPropertyValue('dtstamp') as ICAL.Time).toUnixTime();
      v.removeAllProperties('sequence');
      v.removeAllProperties('dtstamp');
      out.set(`${file} ${String(v.getFirstPropertyValue('uid'))}`, { content: v.toString(), sequence, stamp });
    }
  }
  return out;
}

const OLD_STAMP = '2026-01-01T00:00:00.000Z';

interface Case {
  name: string;
  /** Run before the first render (data the demo lacks). */
  setup?: string[];
  change: string[];
  /** Match ids whose VEVENT must be among those changed (the case reaches them). */
  reaches: string[];
}

/** The best third of the cup's two groups feeding a play-off slot: نجوم (4 points, +1) above صقور (4, 0) as imported. */
const BEST_THIRD_SLOT = [
  `UPDATE events SET best_placed = json('[{"id":"thirds","position":3,"groups":["المجموعة أ","المجموعة ب"],"qualify":1,"ranking":["points","goal_difference","goals_for","wins","decision"],"allocation":null}]')
   WHERE id = 'amm-u14-winter-cup-2026'`,
  `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_source_best, home_source_slot,
     away_team_id, kickoff_at)
   VALUES ('rev-best', 'amm-u14-winter-cup-2026', 3, 'ملحق', 'winners', 'thirds', 1, 'amm-salt', '2026-12-11T13:00:00Z')`,
];

/**
 * A "Super cup" round of the cup (rev-super at bracket position `first`, rev-super-2 at `second` when given) and the
 * final its first match's winner goes to (rev-super-final), whose text names that match by its place in the round.
 */
function superCup(first: number, second?: number): string[] {
  const match = (id: string, position: number, home: string, away: string, day: string) =>
    `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, bracket_position, home_team_id, away_team_id, kickoff_at)
     VALUES ('${id}', 'rsl-cup-2026', 5, 'Super cup', 'winners', ${position}, '${home}', '${away}', '2026-12-${day}T19:00:00Z')`;
  return [
    match('rev-super', first, 'rsl-rovers', 'rsl-westgate', '01'),
    ...(second === undefined ? [] : [match('rev-super-2', second, 'rsl-millbrook', 'rsl-al-noor', '02')]),
    `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_source_match_id, home_source_outcome,
       away_team_id, kickoff_at)
     VALUES ('rev-super-final', 'rsl-cup-2026', 6, 'Super final', 'winners', 'rev-super', 'winner', 'rsl-old-mill', '2026-12-20T19:00:00Z')`,
  ];
}

const CASES: Case[] = [
  {
    // The review of the numbering among ties: the hybrid cup's group matches carry "الجولة 1" too; a second bracket tie of
    // round 1 numbers the first ("Winner of Round 1" becomes "… 1"), which 0010's count of every match never saw.
    name: 'a second tie in a round shared with group matches: the slot fed by the first is numbered',
    setup: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, bracket_position, home_source_group, home_source_position,
         away_source_group, away_source_position, kickoff_at)
       VALUES ('rev-k1', 'amm-u14-winter-cup-2026', 1, 'الجولة 1', 'winners', 0, 'المجموعة أ', 1, 'المجموعة ب', 2, '2026-12-11T13:00:00Z')`,
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_source_match_id, home_source_outcome,
         away_team_id, kickoff_at)
       VALUES ('rev-fin', 'amm-u14-winter-cup-2026', 4, 'نهائي', 'winners', 'rev-k1', 'winner', 'amm-salt', '2026-12-18T13:00:00Z')`,
    ],
    change: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, bracket_position, home_source_group, home_source_position,
         away_source_group, away_source_position, kickoff_at)
       VALUES ('rev-k2', 'amm-u14-winter-cup-2026', 1, 'الجولة 1', 'winners', 1, 'المجموعة أ', 2, 'المجموعة ب', 1, '2026-12-11T15:00:00Z')`,
    ],
    reaches: ['rev-fin'],
  },
  {
    name: 'a semi-final decided: the final names its winner',
    change: [`UPDATE matches SET status = 'completed', home_score = 1, away_score = 0 WHERE id = 'nssa-u14g-sf1'`],
    reaches: ['nssa-u14g-final'],
  },
  {
    name: 'a quarter-final result corrected: the semi-final, and the final fed by that semi-final',
    change: [`UPDATE matches SET home_score = 1, away_score = 2 WHERE id = 'rsl-cup-qf2'`],
    reaches: ['rsl-cup-sf1', 'rsl-cup-final'],
  },
  {
    name: 'a first leg played: the second leg\'s aggregate',
    setup: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_team_id, away_team_id, kickoff_at, leg)
       VALUES ('rev-leg1', 'rsl-cup-2026', 5, 'Super cup', 'winners', 'rsl-rovers', 'rsl-westgate', '2026-12-01T19:00:00Z', 1)`,
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_team_id, away_team_id, kickoff_at, leg,
         first_leg_match_id, status, home_score, away_score)
       VALUES ('rev-leg2', 'rsl-cup-2026', 5, 'Super cup', 'winners', 'rsl-westgate', 'rsl-rovers', '2026-12-08T19:00:00Z', 2,
         'rev-leg1', 'completed', 1, 0)`,
    ],
    change: [`UPDATE matches SET status = 'completed', home_score = 2, away_score = 0 WHERE id = 'rev-leg1'`],
    reaches: ['rev-leg2'],
  },
  {
    name: 'a group\'s result corrected: the knockout slot its table feeds',
    setup: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_source_group, home_source_position,
         away_team_id, kickoff_at)
       VALUES ('rev-playoff', 'amm-u14-winter-cup-2026', 3, 'ملحق', 'winners', 'المجموعة أ', 1, 'amm-salt', '2026-12-11T13:00:00Z')`,
    ],
    change: [`UPDATE matches SET home_score = 0, away_score = 5 WHERE id = 'amm-u14-a-md1-1'`],
    reaches: ['rev-playoff'],
  },
  {
    name: 'a group match moved to another group: the slot the old group\'s table feeds',
    setup: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_source_group, home_source_position,
         away_team_id, kickoff_at)
       VALUES ('rev-playoff', 'amm-u14-winter-cup-2026', 3, 'ملحق', 'winners', 'المجموعة أ', 1, 'amm-salt', '2026-12-11T13:00:00Z')`,
    ],
    change: [`UPDATE matches SET group_name = 'المجموعة ب' WHERE id = 'amm-u14-a-md1-1'`],
    reaches: ['rev-playoff'],
  },
  {
    name: 'a group match removed: the slot its table feeds',
    setup: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_source_group, home_source_position,
         away_team_id, kickoff_at)
       VALUES ('rev-playoff', 'amm-u14-winter-cup-2026', 3, 'ملحق', 'winners', 'المجموعة أ', 1, 'amm-salt', '2026-12-11T13:00:00Z')`,
    ],
    change: [`DELETE FROM matches WHERE id = 'amm-u14-a-md1-1'`],
    reaches: ['rev-playoff'],
  },
  {
    name: 'a result in one group of a best-placed rule: the slot it feeds (Group A\'s third now the best)',
    setup: BEST_THIRD_SLOT,
    change: [`UPDATE matches SET home_score = 4 WHERE id = 'amm-u14-a-md3-2'`],
    reaches: ['rev-best'],
  },
  {
    name: 'a result in another group of the same rule: the same slot (Group B\'s third drops below)',
    setup: BEST_THIRD_SLOT,
    change: [`UPDATE matches SET home_score = 0, away_score = 2 WHERE id = 'amm-u14-b-md3-1'`],
    reaches: ['rev-best'],
  },
  {
    name: 'a group match of a best-placed rule removed: the slot it feeds',
    setup: BEST_THIRD_SLOT,
    change: [`DELETE FROM matches WHERE id = 'amm-u14-b-md1-1'`],
    reaches: ['rev-best'],
  },
  {
    name: 'the best-placed rule changed: the slot it feeds',
    setup: BEST_THIRD_SLOT,
    change: [`UPDATE events SET best_placed = replace(best_placed, '"position":3', '"position":2') WHERE id = 'amm-u14-winter-cup-2026'`],
    reaches: ['rev-best'],
  },
  {
    name: 'a match added under a round\'s name: "Winner of Super cup" becomes "Winner of Super cup 1"',
    setup: superCup(0),
    change: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, bracket_position, home_team_id, away_team_id, kickoff_at)
       VALUES ('rev-super-2', 'rsl-cup-2026', 5, 'Super cup', 'winners', 1, 'rsl-millbrook', 'rsl-al-noor', '2026-12-02T19:00:00Z')`,
    ],
    reaches: ['rev-super-final'],
  },
  {
    name: 'a match added before the others of its round: "Winner of Super cup 1" becomes "Winner of Super cup 2"',
    setup: superCup(1, 2),
    change: [`INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, bracket_position, home_team_id, away_team_id, kickoff_at)
       VALUES ('rev-super-0', 'rsl-cup-2026', 5, 'Super cup', 'winners', 0, 'rsl-old-mill', 'rsl-harbour-lane', '2026-12-03T19:00:00Z')`],
    reaches: ['rev-super-final'],
  },
  {
    name: 'a match moved ahead in its round: "Winner of Super cup 1" becomes "Winner of Super cup 2"',
    setup: superCup(1, 2),
    change: [`UPDATE matches SET bracket_position = 0 WHERE id = 'rev-super-2'`],
    reaches: ['rev-super-final'],
  },
  {
    name: 'the second of a round\'s two matches removed: "Winner of Super cup 1" becomes "Winner of Super cup"',
    setup: superCup(0, 1),
    change: [`DELETE FROM matches WHERE id = 'rev-super-2'`],
    reaches: ['rev-super-final'],
  },
  {
    name: 'the competition\'s match length: every DTEND',
    change: [`UPDATE events SET match_duration_min = 80 WHERE id = 'rsl-prem-2026-27'`],
    reaches: ['rsl-prem-r01-1'],
  },
  {
    name: 'the competition\'s name: every DESCRIPTION',
    change: [`UPDATE events SET name = 'Premier Division 2026/27' WHERE id = 'rsl-prem-2026-27'`],
    reaches: ['rsl-prem-r01-1'],
  },
  {
    name: 'the competition\'s Arabic name, in an Arabic organization: every DESCRIPTION',
    change: [`UPDATE events SET name_ar = 'كأس الشتاء للناشئين' WHERE id = 'amm-u14-winter-cup-2026'`],
    reaches: ['amm-u14-a-md1-1'],
  },
  {
    name: 'the competition\'s city: every LOCATION',
    change: [`UPDATE events SET venue_city = 'Riverside upon Avon' WHERE id = 'rsl-cup-2026'`],
    reaches: ['rsl-cup-qf1'],
  },
  {
    name: 'the away goals rule: the aggregate line',
    setup: [
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_team_id, away_team_id, kickoff_at, leg,
         status, home_score, away_score)
       VALUES ('rev-leg1', 'rsl-cup-2026', 5, 'Super cup', 'winners', 'rsl-rovers', 'rsl-westgate', '2026-12-01T19:00:00Z', 1,
         'completed', 2, 1)`,
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, home_team_id, away_team_id, kickoff_at, leg,
         first_leg_match_id, status, home_score, away_score)
       VALUES ('rev-leg2', 'rsl-cup-2026', 5, 'Super cup', 'winners', 'rsl-westgate', 'rsl-rovers', '2026-12-08T19:00:00Z', 2,
         'rev-leg1', 'completed', 1, 0)`,
    ],
    change: [`UPDATE events SET away_goals_rule = 1 WHERE id = 'rsl-cup-2026'`],
    reaches: ['rev-leg2'],
  },
  {
    name: 'the competition cancelled: every match not played',
    change: [`UPDATE events SET status = 'cancelled' WHERE id = 'nssa-u14g-cup-2026-27'`],
    reaches: ['nssa-u14g-sf1', 'nssa-u14g-final'],
  },
  {
    name: 'a team renamed: its matches, and those whose slot its win decided',
    change: [`UPDATE teams SET name = 'Riverside Rovers AFC' WHERE id = 'rsl-rovers'`],
    reaches: ['rsl-cup-qf1', 'rsl-cup-sf1', 'rsl-cup-third'],
  },
  {
    name: 'the organization\'s language: every text',
    change: [`UPDATE organizations SET language = 'ar' WHERE id = 'riverside-sfl'`],
    reaches: ['rsl-prem-r01-1', 'rsl-cup-final'],
  },
];

describe('a VEVENT that changes raises its SEQUENCE and moves its DTSTAMP', () => {
  it.each(CASES)('$name', async ({ setup = [], change, reaches }) => {
    t = await demoDb();
    for (const statement of setup) t.sqlite.prepare(statement).run();
    // Stamps in the past, so that a change in the same second as the import still shows as a later DTSTAMP.
    t.sqlite.prepare(`UPDATE matches SET updated_at = ?`).run(OLD_STAMP);
    const options: RegenerateOptions = {
      artifactsDir: path.join(t.dir, 'artifacts'),
      publicBaseUrl: 'https://fixtures.example',
      uidDomain: 'fixtures.example',
      refreshMinutes: 5,
    };
    await regenerate(t.db, options);
    const before = snapshot(options.artifactsDir);
    for (const statement of change) t.sqlite.prepare(statement).run();
    await regenerate(t.db, options);
    const after = snapshot(options.artifactsDir);

    const changed: string[] = [];
    const stale: string[] = [];
    for (const [key, now] of after) {
      const was = before.get(key);
      if (!was || was.content === now.content) continue;
      changed.push(key);
      if (!(now.sequence > was.sequence && now.stamp > was.stamp)) {
        stale.push(`${key}: SEQUENCE ${was.sequence} -> ${now.sequence}, DTSTAMP ${was.stamp} -> ${now.stamp}`);
      }
    }
    for (const id of reaches) expect(changed.some((key) => key.includes(` ${id}.`)), `${id} changed`).toBe(true);
    expect(stale).toEqual([]);
  });
});

type Sqlite = TestDb['sqlite'];
/** The match the restore tests move. */
const move = (sqlite: Sqlite, kickoff: string) => sqlite.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = 'rsl-prem-r07-2'`).run(kickoff);

/** Each VEVENT of the moved match now: at `kickoff`, under a SEQUENCE above the one seen. */
const expectMoved = (now: Map<string, Seen>, seen: Map<string, Seen>, kickoff: string) => {
  const moved = [...now].filter(([key]) => key.includes(' rsl-prem-r07-2.'));
  expect(moved.length).toBeGreaterThan(0);
  for (const [key, v] of moved) {
    expect(v.content).toContain(`DTSTART:${kickoff}`);
    expect(v.sequence, key).toBeGreaterThan(seen.get(key)!.sequence);
  }
};

// An operator's review restored a backup, moved a match, and its VEVENT took the SEQUENCE subscribers had already seen
// with the kickoff set after the backup: Google Calendar kept that one. The folder's manifest tells the render which
// competitions went back (src/publish/restored-calendars.ts).
describe('a database restored from a backup', () => {

  /**
   * The demo rendered and backed up; each step of `since` then run on it, each followed by a render; what subscribers
   * saw after the last. `check` gets the backup, opened, to render into the same folder.
   */
  async function restoredAfter(since: Array<(sqlite: Sqlite) => void>, check: (restored: ReturnType<typeof openDb>, seen: Map<string, Seen>, options: RegenerateOptions) => Promise<void>) {
    t = await demoDb();
    t.sqlite.prepare(`UPDATE matches SET updated_at = ?`).run(OLD_STAMP);
    const options: RegenerateOptions = {
      artifactsDir: path.join(t.dir, 'artifacts'), publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5,
    };
    await regenerate(t.db, options);
    const backup = path.join(t.dir, 'backup.db');
    await t.sqlite.backup(backup);
    for (const step of since) {
      step(t.sqlite);
      await regenerate(t.db, options);
    }
    const seen = snapshot(options.artifactsDir);
    const restored = openDb(backup);
    try {
      await check(restored, seen, options);
    } finally {
      await restored.db.destroy();
    }
  }

  /** The VEVENTs of `to` whose content differs from `from` under a SEQUENCE not above it. */
  const stale = (from: Map<string, Seen>, to: Map<string, Seen>) => [...to].flatMap(([key, now]) => {
    const was = from.get(key);
    return was && was.content !== now.content && !(now.sequence > was.sequence) ? [`${key}: ${was.sequence} -> ${now.sequence}`] : [];
  });

  it('raises the SEQUENCE of what went back past everything rendered since the backup, and keeps rising after', async () => {
    // After the backup: a match moved twice (two renders), a result entered.
    await restoredAfter([
      (sqlite) => move(sqlite, '2026-12-06T16:00:00Z'),
      (sqlite) => {
        move(sqlite, '2026-12-06T17:00:00Z');
        sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 1, away_score = 0 WHERE id = 'rsl-prem-r07-3'`).run();
      },
    ], async (restored, seen, options) => {
      expect((await regenerate(restored.db, options)).restored).toBeGreaterThan(0);
      const back = snapshot(options.artifactsDir);
      expect(stale(seen, back)).toEqual([]);
      expect([...back.keys()].filter((key) => key.includes(' rsl-prem-r07-2.') && back.get(key)!.content !== seen.get(key)!.content)).not.toEqual([]);
      // Moved again after the restore: above both what the backup rendered and what was seen before it.
      move(restored.sqlite, '2026-12-06T18:00:00Z');
      expect((await regenerate(restored.db, options)).restored).toBeUndefined();
      const later = snapshot(options.artifactsDir);
      expect(stale(seen, later)).toEqual([]);
      expect(stale(back, later)).toEqual([]);
    });
  });

  // A user's check: one change after the backup, none after the restore. The restored competition's revision raised by
  // one came back to the one the folder had rendered, which the render trusted: it kept the feed of the lost change.
  it('renders again a competition changed once since the backup, nothing changed since the restore', async () => {
    await restoredAfter([(sqlite) => move(sqlite, '2026-12-06T16:00:00Z')], async (restored, seen, options) => {
      const kickoff = restored.sqlite.prepare(`SELECT kickoff_at FROM matches WHERE id = 'rsl-prem-r07-2'`).pluck().get() as string;
      await regenerate(restored.db, options);
      expectMoved(snapshot(options.artifactsDir), seen, kickoff.replace(/[-:]/g, '').replace(/\.\d+/, ''));
    });
  });

  // The review of the first version, which compared revisions: changes made after the restore, before its first
  // render, caught up with the revision the folder had rendered, and nothing was raised nor rendered.
  it('raises them too when the restored database changed before its first render', async () => {
    await restoredAfter([(sqlite) => move(sqlite, '2026-12-06T16:00:00Z')], async (restored, seen, options) => {
      move(restored.sqlite, '2026-12-06T19:00:00Z');
      expect((await regenerate(restored.db, options)).restored).toBeGreaterThan(0);
      expectMoved(snapshot(options.artifactsDir), seen, '20261206T190000Z');
      // Then quiet: the next render raises nothing and writes nothing.
      const quiet = await regenerate(restored.db, options);
      expect(quiet.restored).toBeUndefined();
      expect(quiet.written).toBe(0);
    });
  });
});

// Restored on a new machine: the folder is empty, and only the bucket the reads were published to remembers
// (src/publish/folder-record.ts; the publisher puts the record, test/publish-s3.test.ts, against Ceph).
describe('a database restored on a new machine, with an empty ARTIFACTS_DIR', () => {
  const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;

  /** The demo rendered, backed up, a match moved and rendered again; the record a publish would have put; the backup. */
  async function published() {
    const db = await demoDb();
    t = db;
    const options: RegenerateOptions = {
      artifactsDir: path.join(db.dir, 'artifacts'), publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5,
    };
    await regenerate(db.db, options);
    const backup = path.join(db.dir, 'backup.db');
    await db.sqlite.backup(backup);
    move(db.sqlite, '2026-12-06T16:00:00Z');
    move(db.sqlite, '2026-12-06T16:30:00Z');
    await regenerate(db.db, options);
    return { db, options, seen: snapshot(options.artifactsDir), record: folderRecordOf(manifestOf(options.artifactsDir))!, backup };
  }

  it('raises the calendars past what the bucket says was published, then goes on under an id of its own', async () => {
    const { db, options, seen, record, backup } = await published();
    const restored = openDb(backup);
    try {
      const fresh = { ...options, artifactsDir: path.join(db.dir, 'new-machine'), folderRecord: async () => record };
      // The backup moved the match once more, as an organizer would enter it again: under a SEQUENCE above the one seen.
      move(restored.sqlite, '2026-12-06T17:00:00Z');
      const result = await regenerate(restored.db, fresh);
      expect(result.restored).toBeGreaterThan(0);
      expect(result.recordFromBucket).toBe(true);
      expectMoved(snapshot(fresh.artifactsDir), seen, '20261206T170000Z');
      expect(manifestOf(fresh.artifactsDir).folder).not.toBe(record.folder);
      // Then quiet: its manifest is there now, the bucket is not asked again.
      const quiet = await regenerate(restored.db, { ...fresh, folderRecord: () => Promise.reject(new Error('not asked')) });
      expect([quiet.restored, quiet.recordFromBucket, quiet.written]).toEqual([undefined, undefined, 0]);
    } finally {
      await restored.db.destroy();
    }
  });

  it('raises nothing for the same database with its folder lost (the record says its own token)', async () => {
    const { db, options, record } = await published();
    const result = await regenerate(db.db, { ...options, artifactsDir: path.join(db.dir, 'new-folder'), folderRecord: async () => record });
    expect([result.restored, result.recordFromBucket]).toEqual([undefined, true]);
  });

  it("takes no other database's record, and renders on, saying so, when the key may not read it", async () => {
    const { db, options, record } = await published();
    const other = await regenerate(db.db, { ...options, artifactsDir: path.join(db.dir, 'a'), folderRecord: async () => ({ ...record, installation: 'another' }) });
    expect([other.restored, other.recordFromBucket]).toEqual([undefined, undefined]);
    expect(manifestOf(path.join(db.dir, 'a')).folder).not.toBe(record.folder);
    const denied = await regenerate(db.db, { ...options, artifactsDir: path.join(db.dir, 'b'), folderRecord: async () => 'the key may not get it: allow it s3:GetObject' });
    expect(denied.recordFromBucket).toBe('the key may not get it: allow it s3:GetObject');
    expect(denied.rendered).toBeGreaterThan(0);
    expect(formatResult(denied)).toMatch(/; the folder's record in the bucket could not be read \(the key may not get it: allow it s3:GetObject\): a database restored from a backup is not looked for$/);
  });
});

// RFC 5545 3.8.7.4: a UID's SEQUENCE only ever rises. A match removed (an import without it) and imported again is
// the same UID: a calendar app that saw SEQUENCE 2 takes SEQUENCE 0 for an older version. The UID is the match's and
// its competition's, so a match moved to another competition leaves its UID too: removed there, or removed first and
// moved back later, it comes back to the same UID.
describe('a UID that comes back never goes below the SEQUENCE it had', () => {
  const MATCH = 'rsl-prem-r01-1';
  const UID_KEY = `api/v0/calendar/rsl-prem-2026-27.ics ${MATCH}.rsl-prem-2026-27@fixtures.example`;
  it.each([
    {
      name: 'removed, then imported again',
      away: [`CREATE TEMP TABLE kept AS SELECT * FROM matches WHERE id = '${MATCH}'`, `DELETE FROM matches WHERE id = '${MATCH}'`],
      // As the import writes a new row: no sequence, updated_at of now.
      back: [`UPDATE kept SET sequence = 0, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`, `INSERT INTO matches SELECT * FROM kept`],
    },
    {
      // The UID is the match's and its competition's: moving the match away left it as a removal does.
      name: 'moved to another competition, removed there, then imported again into the first',
      away: [
        `UPDATE matches SET event_id = 'rsl-div1-2026-27' WHERE id = '${MATCH}'`,
        `CREATE TEMP TABLE kept AS SELECT * FROM matches WHERE id = '${MATCH}'`,
        `DELETE FROM matches WHERE id = '${MATCH}'`,
      ],
      back: [
        `UPDATE kept SET sequence = 0, event_id = 'rsl-prem-2026-27', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
        `INSERT INTO matches SELECT * FROM kept`,
      ],
    },
    {
      name: 'removed, imported again into another competition, then moved back',
      away: [`CREATE TEMP TABLE kept AS SELECT * FROM matches WHERE id = '${MATCH}'`, `DELETE FROM matches WHERE id = '${MATCH}'`],
      back: [
        `UPDATE kept SET sequence = 0, event_id = 'rsl-div1-2026-27', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
        `INSERT INTO matches SELECT * FROM kept`,
        `UPDATE matches SET event_id = 'rsl-prem-2026-27' WHERE id = '${MATCH}'`,
      ],
    },
  ])('$name', async ({ away, back }) => {
    t = await demoDb();
    const options: RegenerateOptions = {
      artifactsDir: path.join(t.dir, 'artifacts'),
      publicBaseUrl: 'https://fixtures.example',
      uidDomain: 'fixtures.example',
      refreshMinutes: 5,
    };
    // Two changes: apps have seen SEQUENCE 2.
    t.sqlite.prepare(`UPDATE matches SET venue = 'Pitch 9' WHERE id = ?`).run(MATCH);
    t.sqlite.prepare(`UPDATE matches SET venue = 'Pitch 8' WHERE id = ?`).run(MATCH);
    await regenerate(t.db, options);
    const seen = snapshot(options.artifactsDir).get(UID_KEY)!;
    expect(seen.sequence).toBe(2);
    for (const statement of away) t.sqlite.prepare(statement).run();
    await regenerate(t.db, options);
    expect(snapshot(options.artifactsDir).has(UID_KEY)).toBe(false);
    for (const statement of back) t.sqlite.prepare(statement).run();
    await regenerate(t.db, options);
    expect(snapshot(options.artifactsDir).get(UID_KEY)!.sequence).toBeGreaterThan(seen.sequence);
  });
});

// The rows these triggers raise must not fire them again: each raised match would raise its own closure, so one change
// raised a match once per path to it (a final by each earlier round), and an import listing a cup's final first made
// an amount of work that grows with the cube of the bracket (1,024 teams: 5.9 s and a SEQUENCE of 178,348).
describe('one change raises a VEVENT once', () => {
  /** A single-elimination cup of 2^rounds teams, in bracket order or final first. */
  function cupFile(rounds: number, finalFirst: boolean): string {
    const n = 2 ** rounds;
    const teams = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, name: `Team ${i}`, members: [] }));
    const matches = [];
    for (let r = 1; r <= rounds; r++) {
      const count = n >> r;
      for (let p = 0; p < count; p++) {
        matches.push({
          id: `r${r}m${p}`, round: r, round_name: count > 1 ? `Round of ${2 * count}` : 'Final', position: p,
          kickoff: `2026-10-${String(r).padStart(2, '0')}T${String(8 + (p % 12)).padStart(2, '0')}:00:00Z`,
          home: r === 1 ? `t${2 * p}` : { winner_of: `r${r - 1}m${2 * p}` },
          away: r === 1 ? `t${2 * p + 1}` : { winner_of: `r${r - 1}m${2 * p + 1}` },
        });
      }
    }
    if (finalFirst) matches.reverse();
    const event = { id: 'cup', name: 'Big Cup', type: 'knockout', status: 'scheduled', matches };
    const file = { organizations: [{ id: 'org', name: 'Org', language: 'en', teams, divisions: [], leagues: [{ id: 'lg', name: 'League', events: [event] }] }] };
    const out = path.join(t!.dir, `cup-${rounds}-${finalFirst}.json`);
    fs.writeFileSync(out, JSON.stringify(file));
    return out;
  }
  const sequences = () =>
    new Map((t!.sqlite.prepare('SELECT id, sequence FROM matches').all() as Array<{ id: string; sequence: number }>).map((r) => [r.id, r.sequence]));

  it('a competition renamed: each of its matches one step, the final too', async () => {
    t = await migratedDb();
    expect(importFile(t.sqlite, cupFile(4, false)).ok).toBe(true);
    const before = sequences();
    t.sqlite.prepare(`UPDATE events SET name = 'Bigger Cup' WHERE id = 'cup'`).run();
    const after = sequences();
    const steps = [...after].filter(([id, s]) => s !== before.get(id)! + 1).map(([id, s]) => `${id}: ${before.get(id)} -> ${s}`);
    expect(steps).toEqual([]);
  });

  it('a team renamed: its first match and each match its wins could reach, one step each', async () => {
    t = await migratedDb();
    expect(importFile(t.sqlite, cupFile(4, false)).ok).toBe(true);
    const before = sequences();
    t.sqlite.prepare(`UPDATE teams SET name = 'Team Zero' WHERE id = 't0'`).run();
    const raised = [...sequences()].filter(([id, s]) => s !== before.get(id)).map(([id, s]) => `${id} +${s - before.get(id)!}`);
    expect(raised.sort()).toEqual(['r1m0 +1', 'r2m0 +1', 'r3m0 +1', 'r4m0 +1']);
  });

  it('a cup listed final first imports as one listed in bracket order: nothing raised', async () => {
    t = await migratedDb();
    expect(importFile(t.sqlite, cupFile(6, true)).ok).toBe(true);
    const raised = [...sequences()].filter(([, s]) => s !== 0);
    expect(raised).toEqual([]);
  });

  it('a 1,024-team cup listed final first: no SEQUENCE above the number of its matches', async () => {
    t = await migratedDb();
    const outcome = importFile(t.sqlite, cupFile(10, true));
    expect(outcome.ok).toBe(true);
    const max = Math.max(...sequences().values());
    expect(max).toBeLessThanOrEqual(1023);
    // And the same file again changes nothing.
    const before = sequences();
    importFile(t.sqlite, cupFile(10, true));
    expect(sequences()).toEqual(before);
  });
});

// Migration 0015 raises once the VEVENTs whose words this release changed (RLM and isolated names in Arabic feeds;
// "Winner of Round of 16 (5)"), and nothing else.
describe('migration 0015', () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('raises every match of an Arabic organization and each slot fed by a round named with a number, once', async () => {
    t = await demoDb();
    const ins = (id: string, round: string | null, home: string) =>
      t!.sqlite.prepare(`INSERT INTO matches (id, event_id, round_ordinal, round_name, bracket_role, bracket_position, home_source_match_id,
          home_source_outcome, away_team_id, kickoff_at) VALUES (?, 'rsl-cup-2026', 9, ?, 'winners', 0, ?, 'winner', 'rsl-rovers', '2026-12-20T13:00:00Z')`).run(id, round, home);
    ins('mig-r16', 'Round of 16', 'rsl-cup-final'); // fed by a "Final": its words did not change
    ins('mig-qf', 'Quarter-final', 'mig-r16'); // fed by "Round of 16": "(1)"
    ins('mig-sf', 'Semi-final', 'mig-qf');
    const rows = () => t!.sqlite.prepare(`SELECT m.id, m.sequence, o.language FROM matches m JOIN events e ON e.id = m.event_id
        JOIN leagues l ON l.id = e.league_id JOIN organizations o ON o.id = l.org_id`).all() as Array<{ id: string; sequence: number; language: string }>;
    const before = new Map(rows().map((r) => [r.id, r.sequence]));
    const { up } = await import('../src/db/migrations/0015_calendar_direction.js');
    await up(t.db);
    const raised = rows().filter((r) => r.sequence !== before.get(r.id));
    expect(raised.every((r) => r.sequence === before.get(r.id)! + 1)).toBe(true);
    const arabic = rows().filter((r) => r.language === 'ar').map((r) => r.id);
    expect(arabic.length).toBeGreaterThan(10);
    // The demo futsal cup's slots fed by "Winners round 1" read "… Winners round 1 (1)" now.
    expect(raised.map((r) => r.id).sort()).toEqual([...arabic, 'mig-qf', 'nssa-futsal-l1', 'nssa-futsal-lf', 'nssa-futsal-wf'].sort());
  });
});

// Migration 0023 raises once every VEVENT of an Arabic organization, whose words a native Arabic review changed
// (walkovers, penalties, tanween), and nothing else.
describe('migration 0023', () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('raises every match of an Arabic organization once, and no other', async () => {
    t = await demoDb();
    const rows = () => t!.sqlite.prepare(`SELECT m.id, m.sequence, o.language FROM matches m JOIN events e ON e.id = m.event_id
        JOIN leagues l ON l.id = e.league_id JOIN organizations o ON o.id = l.org_id`).all() as Array<{ id: string; sequence: number; language: string }>;
    const before = new Map(rows().map((r) => [r.id, r.sequence]));
    // Rendered as the release before it left the folder.
    const options: RegenerateOptions = {
      artifactsDir: path.join(t.dir, 'artifacts'), publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5,
    };
    await regenerate(t.db, options);
    const seen = snapshot(options.artifactsDir);
    const { up } = await import('../src/db/migrations/0023_arabic_calendar_words.js');
    await up(t.db);
    const raised = rows().filter((r) => r.sequence !== before.get(r.id));
    expect(raised.every((r) => r.sequence === before.get(r.id)! + 1)).toBe(true);
    const arabic = rows().filter((r) => r.language === 'ar').map((r) => r.id);
    expect(arabic.length).toBeGreaterThan(10);
    expect(raised.map((r) => r.id).sort()).toEqual(arabic.sort());
    // The next render writes them (a review: it rendered nothing, and the feeds kept their SEQUENCE), and only them.
    await regenerate(t.db, options);
    const now = snapshot(options.artifactsDir);
    const risen = [...now].filter(([key, v]) => v.sequence > seen.get(key)!.sequence).map(([key]) => key.split(' ')[1]!.split('.')[0]!);
    expect([...new Set(risen)].sort()).toEqual(arabic.filter((id) => risen.includes(id)).sort());
    expect(new Set(risen).size).toBeGreaterThan(10);
  });
});

// Migration 0016 raises once the VEVENTs 4373053 gave "Postponed: " / "Cancelled: " in their SUMMARY (an operator's
// upgrade review found six left at their SEQUENCE), with their competitions' revisions, and nothing else.
describe('migration 0016', () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('raises every postponed or cancelled match and each unplayed match of a cancelled competition, once', async () => {
    t = await demoDb();
    // A competition cancelled: its unplayed matches are shown cancelled; its played ones are not raised.
    t.sqlite.prepare(`UPDATE events SET status = 'cancelled' WHERE id = 'nssa-u14g-cup-2026-27'`).run();
    const matches = () => new Map((t!.sqlite.prepare(`SELECT id, sequence, status, event_id FROM matches`).all() as Array<{ id: string; sequence: number; status: string; event_id: string }>).map((r) => [r.id, r]));
    const revisions = () => new Map((t!.sqlite.prepare(`SELECT id, revision FROM events`).all() as Array<{ id: string; revision: number }>).map((r) => [r.id, r.revision]));
    const [before, eventsBefore] = [matches(), revisions()];
    const { up } = await import('../src/db/migrations/0016_calendar_status_words.js');
    await up(t.db);
    const after = matches();
    const raised = [...after.values()].filter((m) => m.sequence !== before.get(m.id)!.sequence);
    expect(raised.every((m) => m.sequence === before.get(m.id)!.sequence + 1)).toBe(true);
    const expected = [...before.values()].filter((m) => m.status === 'postponed' || m.status === 'cancelled' || (m.event_id === 'nssa-u14g-cup-2026-27' && m.status !== 'completed'));
    expect(expected.filter((m) => m.event_id !== 'nssa-u14g-cup-2026-27').length).toBeGreaterThanOrEqual(2);
    expect(expected.some((m) => m.event_id === 'nssa-u14g-cup-2026-27')).toBe(true);
    expect(raised.map((m) => m.id).sort()).toEqual(expected.map((m) => m.id).sort());
    // Their competitions render again, and only they.
    const moved = [...revisions()].filter(([id, r]) => r !== eventsBefore.get(id)).map(([id]) => id).sort();
    expect(moved).toEqual([...new Set(expected.map((m) => m.event_id))].sort());
  });
});
