// The README stands on its own: it names no file a user's clone does not have (../shared is not in it), and every
// path it names in the tree exists, the folder map included.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

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
});
