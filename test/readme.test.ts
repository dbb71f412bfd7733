// The README stands on its own: it names no file a user's clone does not have (../shared is not in it), and every
// path it names in the tree exists, the folder map included.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../src/import/load.js';
import { request } from './support/http.js';
import { freePort, waitForPort } from './support/processes.js';
import { startService } from './support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

describe('README', () => {
  it('points at nothing outside the clone', () => {
    expect(readme).not.toMatch(/\.\.\/shared/);
  });

  it('names only paths that exist', () => {
    const named = new Set(
      [...readme.matchAll(/(?<![\w./-])((?:src|test|scripts|bench|data|public)\/[\w./\-[\]*]*)/g)]
        .map((m) => m[1]!.replace(/[.,:;)]+$/, ''))
        // Globs, and the files the service makes where it runs (the defaults of DATABASE_PATH, ARTIFACTS_DIR, MAIL_DIR).
        .filter((p) => !p.includes('*') && !/^data\/(app\.db|artifacts|mail)\b/.test(p)),
    );
    expect(named.size).toBeGreaterThan(30);
    const missing = [...named].filter((p) => !fs.existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('maps every folder of src/ in its folder map', () => {
    const map = readme.slice(readme.indexOf('## Folder map'), readme.indexOf('## Import format'));
    const folders = fs.readdirSync(path.join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `src/${e.name}/`);
    expect(folders.filter((f) => !map.includes(f))).toEqual([]);
  });

  // The configuration as written, with only what a test machine cannot have replaced: the port (no certificates here:
  // 443 ssl becomes a local port, without http2), the node server's port, the paths, and brotli_static when its module
  // is absent (as the README says).
  function readmeNginx(dir: string, ports: { listen: number; node: number; artifacts: string }): string {
    const [snippet, server] = [...readme.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(server).toMatch(/^\s*listen 443 ssl http2;/m);
    const brotli = fs.existsSync('/etc/nginx/modules-enabled') && fs.readdirSync('/etc/nginx/modules-enabled').some((f) => f.includes('brotli'));
    fs.writeFileSync(path.join(dir, 'read.conf'), brotli ? snippet! : snippet!.replace(/^brotli_static .*$/m, ''));
    const body = server!
      .replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${ports.listen};`)
      .replace('server 127.0.0.1:4321;', `server 127.0.0.1:${ports.node};`)
      .replaceAll('include snippets/competitions-read.conf', `include ${path.join(dir, 'read.conf')}`)
      .replace('/srv/data/artifacts', ports.artifacts)
      .replace('/var/log/nginx/competitions.access.log', path.join(dir, 'access.log'));
    const modules = brotli ? 'include /etc/nginx/modules-enabled/*.conf;\n' : '';
    // Debian's module files load `modules/NAME.so`, relative to the prefix: with `-p dir` that is dir/modules, so it
    // points at the installed ones (nginx -t failed on a machine with the brotli module installed).
    if (brotli && fs.existsSync('/usr/share/nginx/modules')) fs.symlinkSync('/usr/share/nginx/modules', path.join(dir, 'modules'));
    // As root, nginx's workers would run as nobody, who cannot read the tests' private temporary folders.
    const user = process.getuid?.() === 0 ? 'user root;\n' : '';
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join(' ');
    const file = path.join(dir, 'nginx.conf');
    fs.writeFileSync(file, `${modules}${user}pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\naccess_log off; ${temp}\n${body}\n}\n`);
    return file;
  }

  it.skipIf(!NGINX)('nginx configuration is accepted by the installed nginx (nginx -t)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-nginx-'));
    try {
      const config = readmeNginx(dir, { listen: 4798, node: 4321, artifacts: dir });
      const r = spawnSync(NGINX!, ['-t', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', config], { encoding: 'utf8' });
      expect(r.stderr).toMatch(/test is successful/);
      expect(r.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // The same configuration running in front of the node server: what nginx answers itself keeps the API's shape, and
  // what it cannot answer reaches node. Before, a browser's preflight of a read (a fan's app sending If-None-Match)
  // got nginx's 405 in HTML, and its 404 lacked nosniff and the exposed headers.
  it.skipIf(!NGINX)('nginx configuration serves the reads and hands preflights and other methods to node', { timeout: 120_000 }, async () => {
    const svc = await startService();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-nginx-'));
    const listen = await freePort();
    const config = readmeNginx(dir, { listen, node: Number(new URL(svc.url).port), artifacts: svc.env.ARTIFACTS_DIR! });
    const nginx = spawn(NGINX!, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', config, '-g', 'daemon off;'], { stdio: 'ignore' });
    try {
      await waitForPort(listen, 10_000, () => nginx.exitCode === null);
      const base = `http://127.0.0.1:${listen}`;
      const events = await request(`${base}/api/v0/events`);
      expect(events.status).toBe(200);
      expect(events.body.equals((await request(`${svc.url}/api/v0/events`)).body)).toBe(true);

      // A calendar feed as node serves it: the same bytes, type and file name (a review saw nginx's without a name).
      const { body: events0 } = events;
      const eventId = (JSON.parse(events0.toString()) as { event_id: string }[])[0]!.event_id;
      const [viaNginx, viaNode] = await Promise.all([`${base}`, svc.url].map((b) => request(`${b}/api/v0/calendar/${eventId}.ics`)));
      expect([viaNginx!.status, viaNode!.status]).toEqual([200, 200]);
      expect(viaNginx!.body.equals(viaNode!.body)).toBe(true);
      for (const header of ['content-type', 'content-disposition', 'access-control-allow-origin', 'x-content-type-options']) {
        expect(viaNginx!.headers[header], header).toBe(viaNode!.headers[header]);
      }
      // A team's calendar, from the folder too (a review found no location for it: every one went to node).
      const teamFile = fs.readdirSync(path.join(svc.env.ARTIFACTS_DIR!, 'api/v0/teams')).find((f) => f.endsWith('.calendar.ics'))!;
      const teamId = teamFile.replace(/\.calendar\.ics$/, '');
      const [teamViaNginx, teamViaNode] = await Promise.all([`${base}`, svc.url].map((b) => request(`${b}/api/v0/teams/${teamId}/calendar`)));
      expect([teamViaNginx!.status, teamViaNode!.status]).toEqual([200, 200]);
      expect(teamViaNginx!.body.equals(teamViaNode!.body)).toBe(true);
      expect(teamViaNginx!.headers['content-disposition']).toBe(teamViaNode!.headers['content-disposition']);
      expect(teamViaNginx!.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/); // nginx's own: served from the file, not proxied

      const preflight = await request(`${base}/api/v0/events`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://fans.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toContain('GET');

      const post = await request(`${base}/api/v0/events`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(405);
      expect(post.headers['content-type']).toBe('application/problem+json');
      expect(post.headers['allow']).toContain('GET');

      const missing = await request(`${base}/api/v0/events/no-such-event/standings`);
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toBe('application/problem+json');
      expect(missing.headers['x-content-type-options']).toBe('nosniff');
      expect(missing.headers['access-control-allow-origin']).toBe('*');
      expect(missing.headers['access-control-expose-headers']).toContain('ETag');

      // A person's form over 16 KiB reaches node, whose page says it in the organization's language: nginx's own 413
      // (client_max_body_size 16k, as this was) is an English page of its own.
      const long = await request(`${base}/api/v0/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Mode': 'navigate' },
        body: new URLSearchParams({ org_id: 'amman-yfa', name: 'Lina', email: 'lina@example.org', notes: 'ع'.repeat(3_000) }).toString(),
      });
      expect(long.status).toBe(413);
      expect(long.text).toContain('<h1>إجاباتك طويلة جدًا</h1>');

      // An email's link through nginx: its token is not written to the access log (an operator's review found the
      // default format writing every /rsvp?token=… and /follow/unsubscribe?token=… there).
      const secret = 'T'.repeat(43);
      await request(`${base}/rsvp?token=${secret}`);
      await request(`${base}/follow/unsubscribe?token=${secret}`);
      // nginx writes a request's line once its answer has left: read the log once the last one is there (a run read it
      // a moment before).
      let logged = '';
      for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        logged = fs.readFileSync(path.join(dir, 'access.log'), 'utf8');
        if (logged.includes('"GET /follow/unsubscribe HTTP/1.1"')) break;
      }
      expect(logged).toMatch(/"GET \/rsvp HTTP\/1\.1" 404 /);
      expect(logged).toContain('"GET /follow/unsubscribe HTTP/1.1"');
      expect(logged).not.toContain(secret);
    } finally {
      nginx.kill('SIGTERM');
      await new Promise((resolve) => (nginx.exitCode === null ? nginx.once('exit', resolve) : resolve(null)));
      await svc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows an import file that imports, once its // comments are taken out', () => {
    const example = /```jsonc\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Import format')))![1]!;
    const parsed = parseImport(example.replace(/\s+\/\/.*$/gm, ''));
    expect(parsed.ok ? [] : parsed.problems).toEqual([]);
  });
});
