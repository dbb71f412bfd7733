// Crash safety: the server killed with SIGKILL in the middle of a write load loses no request it had
// answered 2xx, and the outbox still delivers every email queued before the crash.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { invitationByToken, plantRsvpToken } from '../support/db.js';
import { request } from '../support/http.js';
import { startService, type RunningService } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MATCH = 'rsl-prem-r07-2';
const services: RunningService[] = [];
afterAll(async () => {
  for (const s of services) await s.stop('SIGKILL');
});

interface Acked {
  registrations: string[];
  follows: string[];
  rsvps: Map<string, string>;
  failures: number;
}

/** Six writers until `until()`; `acked` fills as answers come (the test reads it to choose when to kill). */
function writeLoad(url: string, tokens: string[], until: () => boolean): { acked: Acked; done: Promise<Acked> } {
  const acked: Acked = { registrations: [], follows: [], rsvps: new Map(), failures: 0 };
  const worker = async (w: number) => {
    for (let i = 0; !until(); i++) {
      const kind = i % 3;
      try {
        if (kind === 0) {
          const res = await request(`${url}/api/v0/register`, {
            method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ org_id: 'riverside-sfl', name: `Crash ${w}-${i}`, email: `crash.${w}.${i}@example.org` }),
          });
          if (res.status === 201) acked.registrations.push(res.json().id);
        } else if (kind === 1) {
          const email = `follower.${w}.${i}@example.org`;
          const res = await request(`${url}/api/v0/follow`, {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'amman-yfa', email }),
          });
          if (res.status === 200) acked.follows.push(email);
        } else {
          const token = tokens[w % tokens.length]!;
          const status = ['yes', 'no', 'maybe'][i % 3]!;
          const res = await request(`${url}/api/v0/rsvp/respond`, {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, status }),
          });
          if (res.status === 200) acked.rsvps.set(token, status);
        }
      } catch {
        acked.failures++; // the connection died with the server: not acknowledged
        if (until()) return;
      }
    }
  };
  return { acked, done: Promise.all(Array.from({ length: 6 }, (_, w) => worker(w))).then(() => acked) };
}

describe('crash safety', () => {
  it('keeps every acknowledged write and delivers every queued email after a SIGKILL', async () => {
    const first = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0', RATE_LIMIT_READS_PER_MIN: '0' });
    services.push(first);
    const db = new Database(first.env.DATABASE_PATH!);
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(new Date(Date.now() + 30 * 86_400_000).toISOString(), MATCH);
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', MATCH], { cwd: ROOT, env: { ...process.env, ...first.env } });
    // One known token per writer (each writer answers only its own invitation).
    const ids = (db.prepare(`SELECT id FROM rsvp_invitations WHERE match_id = ? ORDER BY id LIMIT 6`).all(MATCH) as { id: string }[]).map((r) => r.id);
    const tokens = ids.map((id, i) => {
      const token = `${'T'.repeat(42)}${i}`;
      plantRsvpToken(db, id, token);
      return token;
    });
    db.close();

    let killed = false;
    const load = writeLoad(first.url, tokens, () => killed);
    // The kill lands mid-load: after 2.5 s and once more than 20 of each kind were acknowledged (a busy machine
    // takes longer to get there; a fixed time alone left too few writes to mean anything there).
    const started = Date.now();
    while ((Date.now() - started < 2500 || load.acked.registrations.length <= 20 || load.acked.follows.length <= 20) && Date.now() - started < 30_000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    first.child.kill('SIGKILL');
    killed = true;
    const acked = await load.done;
    await new Promise<void>((r) => (first.child.exitCode !== null || first.child.signalCode ? r() : first.child.once('exit', () => r())));
    expect(acked.registrations.length).toBeGreaterThan(20);
    expect(acked.follows.length).toBeGreaterThan(20);

    // Restart on the same database, artifacts and mail folder.
    const second = await startService(first.env, first.dir);
    services.push(second);
    const after = new Database(first.env.DATABASE_PATH!, { readonly: true });
    const registered = new Set((after.prepare(`SELECT id FROM registrations`).all() as { id: string }[]).map((r) => r.id));
    expect(acked.registrations.filter((id) => !registered.has(id))).toEqual([]);
    const following = new Set((after.prepare(`SELECT email FROM follows`).all() as { email: string }[]).map((r) => r.email));
    expect(acked.follows.filter((e) => !following.has(e))).toEqual([]);
    for (const [token, status] of acked.rsvps) {
      const row = invitationByToken(after, token)!;
      // The last acknowledged answer, or a later one whose answer was lost with the connection.
      expect(['yes', 'no', 'maybe']).toContain(row.response);
      if (acked.failures === 0) expect(row.response).toBe(status);
    }

    // Every email queued before the crash goes out after the restart.
    const queued = after.prepare(`SELECT count(*) AS n FROM email_outbox`).get() as { n: number };
    const deadline = Date.now() + 60_000;
    let pending = Infinity;
    while (Date.now() < deadline) {
      pending = (after.prepare(`SELECT count(*) AS n FROM email_outbox WHERE status != 'sent'`).get() as { n: number }).n;
      if (pending === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(pending).toBe(0);
    const files = fs.readdirSync(first.env.MAIL_DIR!).filter((f) => f.endsWith('.eml'));
    expect(files.length).toBeGreaterThanOrEqual(queued.n);
    const sent = after.prepare(`SELECT provider_message_id FROM email_outbox`).all() as { provider_message_id: string }[];
    for (const s of sent) expect(files).toContain(s.provider_message_id);
    after.close();
    console.log(`crash: ${acked.registrations.length} registrations, ${acked.follows.length} follows, ${acked.rsvps.size} RSVPs acknowledged before SIGKILL; all present after restart; ${queued.n} emails delivered`);
  }, 120_000);
});
