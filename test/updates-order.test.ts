// A digest lists each competition's changes in the order the matches are played: an organizer who enters a
// knockout's semi-finals, final and champion in one import is told semi-finals, then the final, then the champion,
// whatever the matches' ids sort as. The changes were listed in the order detection met them (match id order):
// "amm-u14-final" sorts before "amm-u14-sf1", so the final's result came before the semi-finals that sent its teams.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { request } from './support/http.js';
import { drainedEmails, linkIn, waitForEmail } from './support/mail.js';
import { runScript, startService, type RunningService } from './support/server.js';
import { playedKickoff } from './support/played.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PARENT = 'parent.order@fans.example';
let svc: RunningService;
let db: Database.Database;

beforeAll(async () => {
  svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0', UPDATES_EVERY_S: '3600' });
  db = new Database(svc.env.DATABASE_PATH!);
  const asked = await request(`${svc.url}/api/v0/follow`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'amman-yfa', email: PARENT }),
  });
  expect(asked.status).toBe(200);
  const mail = await waitForEmail(svc.env.MAIL_DIR!, PARENT, (e) => e.text.includes('/follow/confirm?token='));
  const form = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' };
  expect((await request(linkIn(mail.text, '/follow/confirm?token='), form)).status).toBe(303);

  const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/demo.json'), 'utf8'));
  const cup = demo.organizations.flatMap((o: any) => o.leagues.flatMap((l: any) => l.events)).find((e: any) => e.id === 'amm-u14-winter-cup-2026');
  const match = (id: string) => cup.matches.find((m: any) => m.id === id);
  const played = (id: string, daysAgo: number, hour: number) => ({ status: 'completed', kickoff: playedKickoff(match(id).kickoff, daysAgo, hour) });
  Object.assign(match('amm-u14-sf1'), { ...played('amm-u14-sf1', 2, 7), score: { home: 2, away: 1 } });
  Object.assign(match('amm-u14-sf2'), { ...played('amm-u14-sf2', 2, 9), score: { home: 0, away: 1 } });
  Object.assign(match('amm-u14-final'), { ...played('amm-u14-final', 1, 13), score: { home: 3, away: 3, home_penalties: 4, away_penalties: 5 } });
  const file = path.join(svc.dir, 'knockout-done.json');
  fs.writeFileSync(file, JSON.stringify(demo));
  const imported = await runScript(svc, 'import.ts', [file]);
  expect(imported.status, imported.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  db?.close();
  await svc?.stop();
});

it('lists the semi-finals, then the final, then the champion', async () => {
  const run = await runScript(svc, 'updates.ts', ['--now']);
  expect(run.status, run.stderr).toBe(0);
  const digests = (await drainedEmails(db, svc.env.MAIL_DIR!)).filter((e) => e.to === PARENT && e.subject.startsWith('مستجدات'));
  expect(digests).toHaveLength(1);
  const lines = digests[0]!.text.split(/\r?\n/).filter((l) => l.startsWith('- '));
  expect(lines).toEqual([
    '- النتيجة: \u2068نادي شباب عمّان للناشئين\u2069 2–1 \u2068نادي السلط الرياضي\u2069. المتأهل إلى \u2068النهائي\u2069: \u2068نادي شباب عمّان للناشئين\u2069',
    '- النتيجة: \u2068نادي الزرقاء للناشئين\u2069 0–1 \u2068أكاديمية جبل الحسين\u2069. المتأهل إلى \u2068النهائي\u2069: \u2068أكاديمية جبل الحسين\u2069',
    '- النتيجة: \u2068نادي شباب عمّان للناشئين\u2069 3–3 \u2068أكاديمية جبل الحسين\u2069 (بركلات الترجيح 4–5)',
    '- بطل المسابقة: \u2068أكاديمية جبل الحسين\u2069',
  ]);
  const html = digests[0]!.html;
  expect(html.indexOf('نادي السلط الرياضي')).toBeLessThan(html.indexOf('3–3'));
}, 60_000);
