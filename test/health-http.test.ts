// GET /healthz on the real server: 200 when the service is well; 503 naming the part that is not, here a mail
// backlog that does not drain (Postmark down: only stderr lines before), Postmark refusing the token, and a render
// that keeps failing.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_POSTMARK_TOKEN, FakePostmark } from './support/fake-postmark.js';
import { request } from './support/http.js';
import { freePort } from './support/processes.js';
import { startService, type RunningService } from './support/server.js';

const services: RunningService[] = [];
const postmark = new FakePostmark();
const refusing = new FakePostmark();
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await postmark.close();
  await refusing.close();
});

const health = async (svc: RunningService) => {
  const res = await request(`${svc.url}/healthz`);
  return { status: res.status, headers: res.headers, text: res.text, body: res.json<{ status: string; failing: string[]; checks: Record<string, Record<string, unknown>> }>() };
};

const follow = async (svc: RunningService, email: string) => {
  const res = await request(`${svc.url}/api/v0/follow`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ org_id: 'riverside-sfl', email }),
  });
  expect(res.status).toBe(200);
};

/** Until the worker's next send reached that fake Postmark (and its answer was taken). */
const firstAttempt = async (fake: FakePostmark) => {
  const before = fake.received.length;
  for (const deadline = Date.now() + 10_000; fake.received.length === before; ) {
    if (Date.now() > deadline) throw new Error('no attempt reached the fake Postmark');
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 200));
};

describe('GET /healthz', () => {
  it('is 200 when fresh, and 503 naming mail once an email has been pending too long', { timeout: 90_000 }, async () => {
    const svc = await startService({
      MAIL_TRANSPORT: 'postmark',
      POSTMARK_SERVER_TOKEN: FAKE_POSTMARK_TOKEN,
      POSTMARK_API_HOST: await postmark.listen(await freePort()),
      RATE_LIMIT_WRITES_PER_MIN: '0',
    });
    services.push(svc);
    const fresh = await health(svc);
    expect(fresh.status).toBe(200);
    expect(fresh.headers['cache-control']).toBe('no-store');
    expect(fresh.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fresh.body).toMatchObject({ status: 'ok', failing: [] });
    expect(Object.keys(fresh.body.checks)).toEqual(['database', 'disk', 'mail', 'regenerate', 'retention', 'updates']);
    expect(fresh.body.checks.mail).toEqual({ ok: true, oldest_pending_age_s: null, limit_s: 1800, sending_failing_for_s: null, setup_refused: false, registration_notices_refused_1d: 0 });

    // Postmark down (500): the email stays pending, retried. Just failed, that is no failure of the service yet.
    postmark.mode = { kind: 'status', status: 500, errorCode: 0, message: 'Internal Server Error' };
    const attempted = firstAttempt(postmark);
    await follow(svc, 'backlog@example.org');
    const db = new Database(svc.env.DATABASE_PATH!);
    try {
      await attempted;
      const failing = await health(svc);
      expect(failing.status).toBe(200);
      expect(failing.body.checks.mail).toMatchObject({ ok: true, setup_refused: false });
      expect(failing.body.checks.mail!.sending_failing_for_s).toBeTypeOf('number');
      // Two hours later, as far as the outbox can tell: the row queued then.
      const aged = db.prepare(`UPDATE email_outbox SET created_at = ? WHERE status = 'pending'`).run(new Date(Date.now() - 2 * 3_600_000).toISOString());
      expect(aged.changes).toBe(1);
    } finally {
      db.close();
      postmark.mode = { kind: 'ok' };
    }
    const stale = await health(svc);
    expect(stale.status).toBe(503);
    expect(stale.headers['cache-control']).toBe('no-store');
    expect(stale.body.status).toBe('failing');
    expect(stale.body.failing).toEqual(['mail']);
    expect(stale.body.checks.mail!.oldest_pending_age_s).toBeGreaterThanOrEqual(7_200);
    expect(stale.text).not.toContain('@');
  });

  // A revoked or mistyped token stopped every confirmation while the check above waited its 30 minutes.
  it('is 503 naming mail at once when Postmark refuses the token', { timeout: 90_000 }, async () => {
    const svc = await startService({
      MAIL_TRANSPORT: 'postmark',
      POSTMARK_SERVER_TOKEN: 'a-token-postmark-refuses',
      POSTMARK_API_HOST: await refusing.listen(await freePort()),
      RATE_LIMIT_WRITES_PER_MIN: '0',
    });
    services.push(svc);
    expect((await health(svc)).status).toBe(200);
    const attempted = firstAttempt(refusing);
    await follow(svc, 'refused@example.org');
    await attempted;
    const refused = await health(svc);
    expect(refused.status).toBe(503);
    expect(refused.body.failing).toEqual(['mail']);
    expect(refused.body.checks.mail).toMatchObject({ ok: false, setup_refused: true });
    expect(refused.body.checks.mail!.oldest_pending_age_s).toBeLessThan(60);
    expect(refused.text).not.toContain('@');
  });

  it('is 503 naming the render once it has not succeeded for three periods', { timeout: 90_000 }, async () => {
    const svc = await startService({ REGENERATE_EVERY_S: '1' });
    services.push(svc);
    expect((await health(svc)).status).toBe(200);
    // Another database's reads, as far as every render can tell: each one refuses the folder.
    const manifest = path.join(svc.env.ARTIFACTS_DIR!, '.manifest.json');
    const written = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { installation?: string };
    expect(written.installation).toBeTruthy();
    fs.writeFileSync(manifest, JSON.stringify({ ...written, installation: 'another-database' }));
    let last;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      last = await health(svc);
      if (last.status !== 200) break;
    }
    expect(last!.status).toBe(503);
    expect(last!.body.failing).toEqual(['regenerate']);
    expect(last!.body.checks.regenerate).toMatchObject({ ok: false, limit_s: 3 });
    expect(last!.body.checks.regenerate!.failing_for_s).toBeGreaterThanOrEqual(1);
    expect(svc.output()).toMatch(/regenerate failed|another database/);
  });
});
