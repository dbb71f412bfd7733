// A feed no longer public, through the real server (src/publish/retired-feeds.ts): an empty calendar where a
// published feed was, 404 where none ever was. A calendar user's review: a 404 is "try again later" to calendar apps,
// which kept a competition taken down in their subscribers' calendars for good.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RETIRED_CALENDAR_NAME } from '../src/publish/retired-feeds.js';
import { request } from './support/http.js';
import { runScript, startServiceWithDb, stopServiceWithDb, type RunningService } from './support/server.js';
import type Database from 'better-sqlite3';

let svc: RunningService;
let db: Database.Database;
beforeAll(async () => {
  ({ svc, db } = await startServiceWithDb());
}, 120_000);
afterAll(async () => stopServiceWithDb({ svc, db }));

const regenerate = async () => expect((await runScript(svc, 'regenerate.ts')).status).toBe(0);
const visible = (isPublic: boolean) => db.prepare(`UPDATE events SET is_public = ? WHERE id = 'rsl-cup-2026'`).run(isPublic ? 1 : 0);

it('answers an empty calendar for a feed made private, its matches again once public, and 404 for one never published', async () => {
  const feed = `${svc.url}/api/v0/calendar/rsl-cup-2026.ics`;
  const published = await request(feed);
  expect(published.status).toBe(200);
  const cupName = /^X-WR-CALNAME:(.*)$/m.exec(published.body.toString('utf8'))![1]!.trim();
  expect(published.body.toString('utf8')).toMatch(/^UID:[^.]+\.rsl-cup-2026@/m);
  try {
    visible(false);
    await regenerate();
    await new Promise((r) => setTimeout(r, 1100)); // the server re-checks a file at most once a second
    for (const url of [feed, `${svc.url}/api/v0/calendar/rsl-cup-2026`]) {
      const res = await request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      const text = res.body.toString('utf8');
      expect(text).toContain(`X-WR-CALNAME:${RETIRED_CALENDAR_NAME}\r\n`);
      expect(text).not.toContain('BEGIN:VEVENT');
      expect(text).not.toContain(cupName);
      expect(text).not.toContain('rsl-cup');
      expect((await request(url, { headers: { 'If-None-Match': res.headers['etag']! } })).status).toBe(304);
    }
    expect((await request(`${svc.url}/api/v0/events/rsl-cup-2026/bracket`)).status).toBe(404);
    const never = db.prepare(`SELECT id FROM events WHERE is_public = 0 AND id <> 'rsl-cup-2026'`).all() as { id: string }[];
    expect(never.length).toBeGreaterThan(0);
    for (const { id } of never) expect((await request(`${svc.url}/api/v0/calendar/${id}.ics`)).status, id).toBe(404);
  } finally {
    visible(true);
    await regenerate();
  }
  await new Promise((r) => setTimeout(r, 1100));
  expect((await request(feed)).body.equals(published.body)).toBe(true);
}, 120_000);
