// A request that fails logs one line, through the Astro endpoints as through the node server's own routes: the
// operator's cause when the database is theirs to fix (here, locked by another process past the 10 s a write waits for
// it, on a timer: src/db/group-commit.ts; test/lock-held-http.test.ts has a lock released within them), the
// folded stack when the failure is ours; never the body (the address posted). A review's full disk logged a nine-line
// stack trace per write, through the endpoints, which never named the cause.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './support/http.js';
import { startService, type RunningService } from './support/server.js';

let svc: RunningService;
let db: Database.Database;

beforeAll(async () => {
  svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0' });
  db = new Database(svc.env.DATABASE_PATH!);
});
afterAll(async () => {
  db?.close();
  await svc?.stop();
});

const follow = (email: string) =>
  request(`${svc.url}/api/v0/follow`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ org_id: 'riverside-sfl', email }),
  });

/** The log lines written since `from` (an offset into the service's output) that say a request failed. */
const failures = (from: number) => svc.output().slice(from).split('\n').filter((l) => l.includes('request failed'));

describe('a failed request', () => {
  it("logs one line naming the operator's cause, without a stack trace, when the database stays locked", { timeout: 60_000 }, async () => {
    const from = svc.output().length;
    db.exec('BEGIN IMMEDIATE'); // another process holding the write lock, as a long import does, past the write's 10 s
    let res;
    try {
      res = await follow('locked.out@example.org');
    } finally {
      db.exec('ROLLBACK');
    }
    // Nothing was wrong with the request, and nothing was recorded: the client sends it again later.
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json()).toMatchObject({ type: '/docs#problem-unavailable', status: 503 });
    expect(db.prepare(`SELECT count(*) AS n FROM follows WHERE email = 'locked.out@example.org'`).get()).toEqual({ n: 0 });
    await new Promise((r) => setTimeout(r, 200)); // the line reaches the pipe
    const lines = failures(from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^request failed: POST /api/v0/follow: SQLITE_BUSY .*\\(DATABASE_PATH ${svc.env.DATABASE_PATH!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: another process held it locked`));
    const written = svc.output().slice(from);
    expect(written).not.toMatch(/^\s+at /m);
    expect(written).not.toContain('locked.out@example.org');
  });

  // An operator's review, its database's disk full: an Arabic family's confirmation link, and a club's form, answered
  // a person's browser with English JSON. A page in both languages instead; a script still gets the problem.
  it('answers a browser with a page in both languages, on a page and on a form\'s post, and a script with the problem', { timeout: 30_000 }, async () => {
    const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    db.exec(`ALTER TABLE link_tokens RENAME TO link_tokens_away`);
    let page, script;
    try {
      page = await request(`${svc.url}/follow/confirm?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG`, { headers: html });
      script = await request(`${svc.url}/follow/confirm?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG`, { headers: { Accept: '*/*' } });
    } finally {
      db.exec(`ALTER TABLE link_tokens_away RENAME TO link_tokens`);
    }
    db.exec(`CREATE TRIGGER planted_failure BEFORE INSERT ON follows BEGIN SELECT RAISE(ABORT, 'planted by the test'); END`);
    let form;
    try {
      form = await request(`${svc.url}/api/v0/follow`, {
        method: 'POST',
        headers: { ...html, 'Sec-Fetch-Mode': 'navigate', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'org_id=amman-yfa&email=form.failure%40example.org',
      });
    } finally {
      db.exec('DROP TRIGGER planted_failure');
    }
    for (const res of [page, form]) {
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('Something went wrong on our side');
      expect(res.text).toContain('حدث خطأ من جهتنا');
    }
    expect(script.status).toBe(500);
    expect(script.headers['content-type']).toBe('application/problem+json');
  });

  it("answers a form's post with the failure page as a 503 with Retry-After while the database is locked", { timeout: 60_000 }, async () => {
    db.exec('BEGIN IMMEDIATE');
    let form;
    try {
      form = await request(`${svc.url}/api/v0/follow`, {
        method: 'POST',
        headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'Sec-Fetch-Mode': 'navigate', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'org_id=amman-yfa&email=form.locked%40example.org',
      });
    } finally {
      db.exec('ROLLBACK');
    }
    expect(form.status).toBe(503);
    expect(form.headers['retry-after']).toBe('30');
    expect(form.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(form.text).toContain('Try again in a few minutes');
    expect(form.text).toContain('يُرجى المحاولة مرة أخرى');
  });

  it('logs one line with the stack folded into it when the failure is ours', { timeout: 30_000 }, async () => {
    const from = svc.output().length;
    db.exec(`CREATE TRIGGER planted_failure BEFORE INSERT ON follows BEGIN SELECT RAISE(ABORT, 'planted by the test'); END`);
    let res;
    try {
      res = await follow('ours.to.fix@example.org');
    } finally {
      db.exec('DROP TRIGGER planted_failure');
    }
    expect(res.status).toBe(500);
    await new Promise((r) => setTimeout(r, 200));
    const lines = failures(from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^request failed: POST \/api\/v0\/follow: SqliteError: planted by the test at .+ <- at /);
    const written = svc.output().slice(from);
    expect(written).not.toMatch(/^\s+at /m);
    expect(written).not.toContain('ours.to.fix@example.org');
  });
});
