// A fan's app on another origin reading the API from a browser (Debian's Chromium through playwright-core), as the
// contract invites: a read, then the same read revalidated with the ETag it exposed. A review's app sent that
// If-None-Match and the browser's preflight was refused (Allow-Headers named only Content-Type and Idempotency-Key):
// the fetch failed outright, no 304 and no 200.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium, type Browser } from '../support/browser.js';
import { startService, type RunningService } from '../support/server.js';


let svc: RunningService;
let browser: Browser;
let app: http.Server;
let appUrl: string;

beforeAll(async () => {
  if (!CHROMIUM) return;
  browser = await launchChromium();
  svc = await startService({});
  // The app's page: localhost, another origin than the service's 127.0.0.1.
  app = http.createServer((_req, res) => res.end('<!doctype html><title>Fan app</title>'));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://localhost:${(app.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await new Promise((resolve) => app?.close(resolve));
});

describe.skipIf(!CHROMIUM)('reads from a script on another origin', () => {
  it.each([
    ['the events list', '/api/v0/events'],
    ['an RSVP summary', '/api/v0/rsvp/rsl-prem-r07-2'],
  ])('%s: revalidated with If-None-Match (304), If-Modified-Since and Cache-Control', async (_label, path) => {
    const page = await browser.newPage();
    await page.goto(appUrl);
    const outcome = await page.evaluate(async (url) => {
      const first = await fetch(url, { cache: 'no-store' });
      const etag = first.headers.get('ETag');
      const lastModified = first.headers.get('Last-Modified');
      const again = await fetch(url, { cache: 'no-store', headers: { 'If-None-Match': etag ?? '' } });
      const since = await fetch(url, { cache: 'no-store', headers: { 'If-Modified-Since': lastModified ?? '' } });
      const fresh = await fetch(url, { cache: 'no-store', headers: { 'Cache-Control': 'no-cache' } });
      return { first: first.status, etag, again: again.status, since: since.status, fresh: fresh.status };
    }, `${svc.url}${path}`);
    expect(outcome.first).toBe(200);
    expect(outcome.etag).toMatch(/^"/);
    expect(outcome.again).toBe(304);
    expect([200, 304]).toContain(outcome.since);
    expect(outcome.fresh).toBe(200);
    await page.close();
  });
});
