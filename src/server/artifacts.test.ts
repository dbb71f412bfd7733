// The artifact handler's memory: a byte budget with least-recently-used eviction, and variants that always go with
// the identity file they are served under.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArtifactStore } from '../publish/store.js';
import { tempDir } from '../../test/support/db.js';
import { artifactHandler } from './artifacts.js';

let dir: string;
let server: http.Server;
let base: string;

const write = (id: string, fill: string) => {
  const file = path.join(dir, 'api/v0/events', id, 'standings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify([{ club_name: fill.repeat(2000) }]));
};
const get = async (id: string) => (await fetch(`${base}/api/v0/events/${id}/standings`, { headers: { 'Accept-Encoding': 'identity' } })).text();

beforeEach(async () => {
  dir = tempDir('competitions-artifacts-');
  // Room for one 2 KB file, not two.
  const handle = artifactHandler(dir, 3000);
  server = http.createServer(async (req, res) => {
    if (!(await handle(req, res))) res.writeHead(418).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  vi.useRealTimers();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('artifact cache', () => {
  it('serves a cached file for up to a second without looking at the disk', async () => {
    write('a', 'x');
    expect(await get('a')).toContain('xxx');
    write('a', 'y');
    expect(await get('a')).toContain('xxx');
  });

  it('drops the least recently used file past its byte budget, so memory stays bounded', async () => {
    write('a', 'x');
    write('b', 'x');
    expect(await get('a')).toContain('xxx');
    expect(await get('b')).toContain('xxx'); // over budget: a is evicted
    write('a', 'y');
    expect(await get('a')).toContain('yyy'); // read again from disk at once
  });
});

describe('variants and their identity', () => {
  const rel = 'api/v0/events/e/bracket.json';
  const long = (fill: string) => JSON.stringify([{ slot: fill.repeat(300) }]);
  /** fetch decodes br itself: the body is what a client reads, the header says what was sent. */
  const getBr = async () => {
    const res = await fetch(`${base}/api/v0/events/e/bracket`, { headers: { 'Accept-Encoding': 'br' } });
    return { encoding: res.headers.get('content-encoding'), body: await res.text() };
  };

  it('sends a short artifact as it is, never a .gz or .br left beside it', async () => {
    fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), '[]');
    fs.writeFileSync(path.join(dir, `${rel}.br`), zlib.brotliCompressSync(long('old')));
    expect(await getBr()).toEqual({ encoding: null, body: '[]' });
  });

  // The identity checked at t, its .br half a second later: at t + 1.1 s the identity is read again, the .br
  // is still within its second. The artifact is rewritten by the store in between.
  it.each([
    { case: 'shrinks below the size of variants', next: '[]', encoding: null },
    { case: 'changes', next: long('b'), encoding: 'br' },
  ])('never sends an older .br under a newer identity when the artifact $case', async ({ next, encoding }) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = Date.now();
    const hash = new ArtifactStore(dir).put(rel, long('a'), undefined);
    await fetch(`${base}/api/v0/events/e/bracket`, { headers: { 'Accept-Encoding': 'identity' } });
    vi.setSystemTime(t + 500);
    expect(await getBr()).toEqual({ encoding: 'br', body: long('a') });
    new ArtifactStore(dir).put(rel, next, hash);
    vi.setSystemTime(t + 1_100);
    expect(await getBr()).toEqual({ encoding, body: next });
  });
});
