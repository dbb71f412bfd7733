// The README stands on its own: it names no file a user's clone does not have (../shared is not in it), and every
// path it names in the tree exists, the folder map included.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../src/import/load.js';

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
  // 443 ssl becomes a local port), the paths, and brotli_static when its module is absent (as the README says).
  it.skipIf(!NGINX)("nginx configuration is accepted by the installed nginx (nginx -t)", () => {
    const [snippet, server] = [...readme.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(server).toMatch(/^\s*listen 443 ssl\b/m);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-nginx-'));
    try {
      const brotli = fs.existsSync('/etc/nginx/modules-enabled') && fs.readdirSync('/etc/nginx/modules-enabled').some((f) => f.includes('brotli'));
      fs.writeFileSync(path.join(dir, 'read.conf'), brotli ? snippet! : snippet!.replace(/^brotli_static .*$/m, ''));
      const body = server!
        .replace(/listen 443 ssl/, 'listen 127.0.0.1:4798')
        .replaceAll('include snippets/competitions-read.conf', `include ${path.join(dir, 'read.conf')}`)
        .replace('/srv/data/artifacts', dir);
      const modules = brotli ? 'include /etc/nginx/modules-enabled/*.conf;\n' : '';
      fs.writeFileSync(
        path.join(dir, 'nginx.conf'),
        `${modules}pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n${body}\n}\n`,
      );
      const r = spawnSync(NGINX!, ['-t', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
      expect(r.stderr).toMatch(/test is successful/);
      expect(r.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows an import file that imports, once its // comments are taken out', () => {
    const example = /```jsonc\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Import format')))![1]!;
    const parsed = parseImport(example.replace(/\s+\/\/.*$/gm, ''));
    expect(parsed.ok ? [] : parsed.problems).toEqual([]);
  });
});
