import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/db.js';
import { ArtifactStore, contentHash } from './store.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('competitions-store-');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('ArtifactStore', () => {
  it('writes the file with gzip and brotli variants that decode to the same bytes', () => {
    const store = new ArtifactStore(dir);
    const hash = store.put('a/b.json', '{"x":"عربي"}', undefined);
    expect(hash).toBe(contentHash('{"x":"عربي"}'));
    const file = path.join(dir, 'a/b.json');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"x":"عربي"}');
    expect(zlib.gunzipSync(fs.readFileSync(file + '.gz')).toString()).toBe('{"x":"عربي"}');
    expect(zlib.brotliDecompressSync(fs.readFileSync(file + '.br')).toString()).toBe('{"x":"عربي"}');
    expect(store.stats).toEqual({ written: 1, unchanged: 0, removed: 0 });
  });

  it('skips identical content, rewrites changed content or a missing variant', () => {
    const first = new ArtifactStore(dir);
    const hash = first.put('x.json', '[]', undefined);
    const second = new ArtifactStore(dir);
    second.put('x.json', '[]', hash);
    expect(second.stats.unchanged).toBe(1);
    fs.rmSync(path.join(dir, 'x.json.br'));
    second.put('x.json', '[]', hash);
    expect(second.stats.written).toBe(1);
    second.put('x.json', '[1]', hash);
    expect(second.stats.written).toBe(2);
  });

  it('removes a file with its variants', () => {
    const store = new ArtifactStore(dir);
    store.put('e/standings.json', '[]', undefined);
    store.remove('e/standings.json');
    expect(fs.existsSync(path.join(dir, 'e'))).toBe(false);
    expect(store.stats.removed).toBe(1);
  });

  it('clears temporary files a killed run left, but not fresh ones', () => {
    fs.mkdirSync(path.join(dir, 'e'));
    const stale = path.join(dir, 'e/.standings.json.123.abcd.tmp');
    const fresh = path.join(dir, 'e/.standings.json.456.ef01.tmp');
    fs.writeFileSync(stale, 'half');
    fs.writeFileSync(fresh, 'half');
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(stale, old, old);
    new ArtifactStore(dir).put('e/standings.json', '[]', undefined);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});
