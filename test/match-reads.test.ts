// streamMatchesByEvent reads each event's matches as one JSON array (src/competitions/queries.ts says why): every
// match must come back exactly as a plain row read gives it, every column, every kind of text.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_COLUMNS, streamMatchesByEvent } from '../src/competitions/queries.js';
import { openDb } from '../src/db/connect.js';
import { createDataset } from './support/dataset.js';
import { tempDir } from './support/db.js';

const TRICKY_TEXT = 'ملعب "النخيل" \\ back\\slash; comma, new\nline\ttab \u0001 control 😀 \u2028 end';

describe('streamMatchesByEvent', () => {
  const dir = tempDir();
  const file = path.join(dir, 'app.db');
  let conn: ReturnType<typeof openDb>;

  beforeAll(async () => {
    await createDataset(file, { events: 20, matchesPerEvent: 12, seed: 3 });
    conn = openDb(file);
    const { sqlite } = conn;
    // Every column set on some match, with text JSON must escape, and the largest integers a column may hold.
    const [first, second] = sqlite.prepare(`SELECT id, event_id FROM matches ORDER BY event_id, id LIMIT 2`).all() as Array<{ id: string; event_id: string }>;
    sqlite
      .prepare(
        `UPDATE matches SET venue = @text, round_name = @text, group_name = @text, sequence = 2147483647,
           home_score = 9007199254740991, away_score = 0, leg = 2, first_leg_match_id = @other, after_extra_time = 1,
           home_source_group = @text, home_source_position = 3, away_source_group = 'B', away_source_position = 1
         WHERE id = @id`,
      )
      .run({ text: TRICKY_TEXT, id: first!.id, other: second!.id });
  });
  afterAll(async () => {
    await conn.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives every match of every event as a plain read of its columns does, in id order', async () => {
    const { db, sqlite } = conn;
    const ids = (sqlite.prepare('SELECT id FROM events ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
    // One event with no match at all: it comes back with an empty list.
    ids.push('no-such-event');
    const seen: string[] = [];
    let matches = 0;
    for await (const { eventId, matches: streamed } of streamMatchesByEvent(db, ids)) {
      seen.push(eventId);
      const plain = await db.selectFrom('matches').select(MATCH_COLUMNS).where('event_id', '=', eventId).orderBy('id').execute();
      expect(streamed).toStrictEqual(plain);
      matches += streamed.length;
    }
    expect(seen).toEqual(ids);
    expect(matches).toBe((sqlite.prepare('SELECT count(*) AS n FROM matches').get() as { n: number }).n);
    const tricky = (sqlite.prepare('SELECT count(*) AS n FROM matches WHERE venue = ?').get(TRICKY_TEXT) as { n: number }).n;
    expect(tricky).toBe(1);
  });
});
