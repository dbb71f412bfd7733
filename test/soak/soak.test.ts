// Soak: SOAK_SECONDS (default 300) of mixed read and write load against the running service, with the
// regeneration loop running: no error, and the server's memory stops growing. Bound: resident memory at the
// end is at most 64 MB above what it was after the first minute (warm-up), and never above 512 MB.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantRsvpToken } from '../support/db.js';
import { request } from '../support/http.js';
import { startService, type RunningService } from '../support/server.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const WARMUP_S = Math.min(60, SECONDS / 5);
const GROWTH_BOUND_MB = 64;
const ABSOLUTE_BOUND_MB = 512;
const MATCH = 'rsl-prem-r07-2';

let svc: RunningService;
let tokens: string[] = [];
beforeAll(async () => {
  svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0', RATE_LIMIT_READS_PER_MIN: '0', REGENERATE_EVERY_S: '5' });
  const db = new Database(svc.env.DATABASE_PATH!);
  db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(new Date(Date.now() + 30 * 86_400_000).toISOString(), MATCH);
  const members = db.prepare(`SELECT tm.id FROM team_members tm JOIN matches m ON tm.team_id IN (m.home_team_id, m.away_team_id) WHERE m.id = ?`).all(MATCH) as { id: string }[];
  tokens = members.map((m, i) => {
    const token = `${'S'.repeat(40)}${String(i).padStart(3, '0')}`;
    db.prepare(`INSERT INTO rsvp_invitations (id, match_id, member_id) VALUES (?, ?, ?)`).run(`soak-${i}`, MATCH, m.id);
    plantRsvpToken(db, `soak-${i}`, token);
    return token;
  });
  db.close();
});
afterAll(async () => svc?.stop());

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

describe('soak', () => {
  it(`serves ${SECONDS} s of mixed load without an error or unbounded memory growth`, async () => {
    const until = Date.now() + SECONDS * 1000;
    const counts = { requests: 0, errors: 0 };
    const errors: string[] = [];
    const samples: { t: number; mb: number }[] = [];
    const sampler = setInterval(() => samples.push({ t: Date.now(), mb: rssMb(svc.child.pid!) }), 2000);
    const etags = new Map<string, string>();

    const ops: ((w: number, i: number) => Promise<[number, number[]]>)[] = [
      async () => [(await request(`${svc.url}/api/v0/events`, { headers: { 'Accept-Encoding': 'br' } })).status, [200]],
      async () => {
        const path = '/api/v0/events/rsl-prem-2026-27/standings';
        const res = await request(svc.url + path, { headers: etags.has(path) ? { 'If-None-Match': etags.get(path)! } : {} });
        if (res.headers.etag) etags.set(path, res.headers.etag);
        return [res.status, [200, 304]];
      },
      async () => [(await request(`${svc.url}/api/v0/calendar/rsl-cup-2026`, { headers: { 'Accept-Encoding': 'gzip' } })).status, [200]],
      async () => [(await request(`${svc.url}/api/v0/events/nssa-futsal-champs-2026/bracket`)).status, [200]],
      async () => [(await request(`${svc.url}/api/v0/rsvp/${MATCH}`)).status, [200]],
      async (w, i) => [
        (await request(`${svc.url}/api/v0/register`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: `لاعب ${w}-${i}`, email: `soak.${w}.${i}@example.org` }),
        })).status,
        [201],
      ],
      async (w, i) => [
        (await request(`${svc.url}/api/v0/follow`, {
          method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ org_id: 'riverside-sfl', email: `soakfan.${w}.${i}@example.org` }).toString(),
        })).status,
        [200],
      ],
      async (w, i) => [
        (await request(`${svc.url}/api/v0/rsvp/respond`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: tokens[(w + i) % tokens.length], status: ['yes', 'no', 'maybe'][i % 3] }),
        })).status,
        [200],
      ],
    ];

    const worker = async (w: number) => {
      for (let i = 0; Date.now() < until; i++) {
        const op = ops[(w + i) % ops.length]!;
        try {
          const [status, ok] = await op(w, i);
          counts.requests++;
          if (!ok.includes(status)) {
            counts.errors++;
            if (errors.length < 10) errors.push(`op ${(w + i) % ops.length}: ${status}`);
          }
        } catch (error) {
          counts.errors++;
          if (errors.length < 10) errors.push(String(error));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    clearInterval(sampler);

    const start = samples[0]!.t;
    const afterWarmup = samples.filter((s) => s.t - start >= WARMUP_S * 1000);
    const warm = afterWarmup[0]!.mb;
    const end = samples[samples.length - 1]!.mb;
    const peak = Math.max(...samples.map((s) => s.mb));
    console.log(
      `soak: ${SECONDS} s, ${counts.requests} requests (${Math.round(counts.requests / SECONDS)}/s), ${counts.errors} errors; ` +
        `server RSS ${samples[0]!.mb.toFixed(0)} MB at start, ${warm.toFixed(0)} MB after ${WARMUP_S} s, ${end.toFixed(0)} MB at the end, peak ${peak.toFixed(0)} MB`,
    );
    expect(errors, JSON.stringify(errors)).toEqual([]);
    expect(counts.errors).toBe(0);
    expect(end - warm).toBeLessThan(GROWTH_BOUND_MB);
    expect(peak).toBeLessThan(ABSOLUTE_BOUND_MB);
    expect(svc.output()).not.toMatch(/regeneration failed|request failed/);
  }, (SECONDS + 120) * 1000);
});
