// The artifact handler's memory: a byte budget with least-recently-used eviction.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
