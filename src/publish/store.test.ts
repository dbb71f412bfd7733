import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/db.js';
import { ArtifactStore, contentHash, hasVariants, MIN_COMPRESSED_BYTES, writeFileAtomic, type PreparedArtifact } from './store.js';

/** A JSON array of exactly `length` bytes (≥ 2), long enough or not for variants. */
const jsonOfLength = (length: number) => (length === 2 ? '[]' : `["${'x'.repeat(length - 4)}"]`);
const present = (file: string) => ['', '.gz', '.br'].filter((v) => fs.existsSync(file + v));

let dir: string;
beforeEach(() => {
  dir = tempDir('competitions-store-');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('ArtifactStore', () => {
  it('writes the file with gzip and brotli variants that decode to the same bytes', () => {
    const store = new ArtifactStore(dir);
    const content = JSON.stringify([{ team: 'الأهلي', played: 3, points: 7 }, { team: 'الزمالك', played: 3, points: 4 }, { team: 'Zamalek', played: 3, points: 4 }]);
    const hash = store.put('a/b.json', content, undefined);
    expect(hash).toBe(contentHash(content));
    const file = path.join(dir, 'a/b.json');
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
    expect(zlib.gunzipSync(fs.readFileSync(file + '.gz')).toString()).toBe(content);
    expect(zlib.brotliDecompressSync(fs.readFileSync(file + '.br')).toString()).toBe(content);
    expect(store.stats).toEqual({ written: 1, unchanged: 0, removed: 0 });
  });

  it('writes content given in parts as the same bytes, hash and variants as the parts joined', () => {
    const parts = ['BEGIN:VCALENDAR\r\n', 'SUMMARY:الأهلي – الزمالك 😀\r\n'.repeat(20), '', 'END:VCALENDAR\r\n'];
    const joined = parts.join('');
    const store = new ArtifactStore(dir);
    expect(store.put('parts.ics', parts, undefined)).toBe(store.put('joined.ics', joined, undefined));
    for (const v of ['', '.gz', '.br']) {
      expect(fs.readFileSync(path.join(dir, 'parts.ics' + v)).equals(fs.readFileSync(path.join(dir, 'joined.ics' + v))), v).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'parts.ics'), 'utf8')).toBe(joined);
  });

  it.each([
    { length: 2, variants: false },
    { length: MIN_COMPRESSED_BYTES - 1, variants: false },
    { length: MIN_COMPRESSED_BYTES, variants: true },
    { length: 4096, variants: true },
  ])('an artifact of $length bytes has variants: $variants', ({ length, variants }) => {
    new ArtifactStore(dir).put('x.json', jsonOfLength(length), undefined);
    expect(fs.statSync(path.join(dir, 'x.json')).size).toBe(length);
    expect(present(path.join(dir, 'x.json'))).toEqual(variants ? ['', '.gz', '.br'] : ['']);
  });

  it('removes the variants of an artifact that became too short for them, and writes them when it grows again', () => {
    const file = path.join(dir, 'e/bracket.json');
    const long = jsonOfLength(500);
    const store = new ArtifactStore(dir);
    const longHash = store.put('e/bracket.json', long, undefined);
    const shortHash = store.put('e/bracket.json', '[]', longHash);
    expect(present(file)).toEqual(['']);
    expect(fs.readFileSync(file, 'utf8')).toBe('[]');
    store.put('e/bracket.json', long, shortHash);
    expect(present(file)).toEqual(['', '.gz', '.br']);
    expect(zlib.gunzipSync(fs.readFileSync(file + '.gz')).toString()).toBe(long);
    expect(store.stats.written).toBe(3);
  });

  it.each([4, 500])('hands off a %i-byte artifact in a buffer of its own, not the store\'s scratch buffer', (length) => {
    const handed: PreparedArtifact[] = [];
    const store = new ArtifactStore(dir, (a) => handed.push(a));
    const contents = [jsonOfLength(length), jsonOfLength(length + 1)];
    store.put('x.json', contents[0]!, undefined);
    store.put('y.json', contents[1]!, undefined);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(handed.map((a) => hasVariants(a.identityLength))).toEqual(length < MIN_COMPRESSED_BYTES ? [false, false] : [true, true]);
    for (const [i, a] of handed.entries()) {
      const part = (from: number, to: number) => Buffer.from(a.bytes, from, to - from);
      expect(part(0, a.identityLength).toString()).toBe(contents[i]);
      if (!hasVariants(a.identityLength)) expect(a.bytes.byteLength).toBe(a.identityLength);
      else {
        expect(zlib.gunzipSync(part(a.identityLength, a.identityLength + a.gzLength)).toString()).toBe(contents[i]);
        expect(zlib.brotliDecompressSync(part(a.identityLength + a.gzLength, a.bytes.byteLength)).toString()).toBe(contents[i]);
        expect(a.bytes.byteLength).toBeLessThan(a.identityLength * 2);
      }
    }
  });

  it('skips identical content, rewrites changed content or a missing file', () => {
    const long = jsonOfLength(300);
    const first = new ArtifactStore(dir);
    const hash = first.put('x.json', long, undefined);
    const shortHash = first.put('y.json', '[]', undefined);
    const second = new ArtifactStore(dir);
    second.put('x.json', long, hash);
    second.put('y.json', '[]', shortHash);
    expect(second.stats.unchanged).toBe(2);
    fs.rmSync(path.join(dir, 'x.json.br'));
    second.put('x.json', long, hash);
    expect(second.stats.written).toBe(1);
    second.put('x.json', '[1]', hash);
    expect(second.stats.written).toBe(2);
    fs.rmSync(path.join(dir, 'y.json'));
    second.put('y.json', '[]', shortHash);
    expect(second.stats.written).toBe(3);
  });

  it.each([
    { case: 'both variants, left by a release that compressed every artifact', left: ['.gz', '.br'] },
    { case: 'a longer version\'s .br, left by a run stopped before its identity', left: ['.br'] },
  ])('writes a short artifact again when it has $case, though its bytes did not change', ({ left }) => {
    const file = path.join(dir, 'e/bracket.json');
    const hash = new ArtifactStore(dir).put('e/bracket.json', '[]', undefined);
    for (const v of left) fs.writeFileSync(file + v, v === '.gz' ? zlib.gzipSync('["old"]') : zlib.brotliCompressSync('["old"]'));
    const store = new ArtifactStore(dir);
    expect(store.put('e/bracket.json', '[]', hash)).toBe(hash);
    expect(store.stats).toEqual({ written: 1, unchanged: 0, removed: 0 });
    expect(present(file)).toEqual(['']);
    expect(fs.readFileSync(file, 'utf8')).toBe('[]');
    store.put('e/bracket.json', '[]', hash);
    expect(store.stats.unchanged).toBe(1);
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

describe('writeFileAtomic', () => {
  // A review's registrations export to a folder: "nothing written", and a hidden copy of the export beside it.
  it('leaves nothing beside the target when the rename is refused (the target a folder), and writes with its mode', () => {
    fs.mkdirSync(path.join(dir, 'out'));
    expect(() => writeFileAtomic(path.join(dir, 'out'), 'private', { mode: 0o600, mkdir: false })).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(fs.readdirSync(dir)).toEqual(['out']);
    writeFileAtomic(path.join(dir, 'x.csv'), 'rows', { mode: 0o600, mkdir: false });
    expect([fs.readFileSync(path.join(dir, 'x.csv'), 'utf8'), fs.statSync(path.join(dir, 'x.csv')).mode & 0o777]).toEqual(['rows', 0o600]);
    expect(fs.readdirSync(dir).sort()).toEqual(['out', 'x.csv']);
  });
});
