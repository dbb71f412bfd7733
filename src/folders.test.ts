// The folders the settings name are made one level at a time, and refused at once, naming the setting, where they
// cannot be made or written in: never Node's recursive mkdir, which loops forever where mkdir answers ENOENT under a
// parent that exists (/proc, a link to nothing).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { artifactsUnreachableByOthers, folderWriteError, makeArtifactsFolder, makeFolder } from './folders.js';
import { LOCKS_DIR } from './publish/folder-lock.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-folders-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What makeArtifactsFolder threw, and how long it took. */
function refusal(folder: string): { message: string; ms: number } {
  const started = performance.now();
  try {
    makeArtifactsFolder(folder);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { message: (error as Error).message, ms: performance.now() - started };
  }
  throw new Error(`${folder} was taken`);
}

describe.skipIf(!fs.existsSync('/proc/self'))('a folder that cannot be made or written in', () => {
  it.each([
    ['/proc/x', `ARTIFACTS_DIR (/proc/x): ENOENT: no such file or directory, mkdir '/proc/x' (/proc takes no new folder)`],
    ['/proc/x/y/z', `ARTIFACTS_DIR (/proc/x/y/z): ENOENT: no such file or directory, mkdir '/proc/x' (/proc takes no new folder)`],
    ['/proc', /^ARTIFACTS_DIR \(\/proc\): cannot write in this folder: ENOENT: no such file or directory, mkdtemp '\/proc\/\.writable-check-/],
  ])('%s: refused at once, naming ARTIFACTS_DIR', (folder, message) => {
    const r = refusal(folder);
    if (typeof message === 'string') expect(r.message).toBe(message);
    else expect(r.message).toMatch(message);
    expect(r.ms).toBeLessThan(1_000);
  });

  it('under a link to nothing: refused at once', () => {
    fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'link'));
    const folder = path.join(dir, 'link', 'artifacts');
    const r = refusal(folder);
    expect(r.message).toBe(
      `ARTIFACTS_DIR (${folder}): EEXIST: file already exists, mkdir '${path.join(dir, 'link')}' (${path.join(dir, 'link')} is a link to nothing: remove it or make what it points to)`,
    );
    expect(r.ms).toBeLessThan(1_000);
  });

  it('under a file: refused naming the file, as the system says it and in words', () => {
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    const folder = path.join(dir, 'a-file', 'artifacts');
    expect(refusal(folder).message).toBe(
      `ARTIFACTS_DIR (${folder}): EEXIST: file already exists, mkdir '${path.join(dir, 'a-file')}' (${path.join(dir, 'a-file')} is a file, not a folder: name a folder)`,
    );
  });

  it('itself a file: refused saying so', () => {
    const folder = path.join(dir, 'reads');
    fs.writeFileSync(folder, '');
    expect(refusal(folder).message).toBe(`ARTIFACTS_DIR (${folder}): EEXIST: file already exists, mkdir '${folder}' (${folder} is a file, not a folder: name a folder)`);
  });
});

describe('a folder that can be made', () => {
  it('is made with its missing parents, and left with nothing in it but the locks folder the render uses', () => {
    const folder = path.join(dir, 'a', 'b', 'artifacts');
    makeArtifactsFolder(folder);
    expect(fs.statSync(folder).isDirectory()).toBe(true);
    expect(fs.readdirSync(folder)).toEqual([LOCKS_DIR]);
    expect(fs.readdirSync(path.join(folder, LOCKS_DIR))).toEqual([]);
  });

  it('that exists is taken as it is, its files untouched', () => {
    fs.writeFileSync(path.join(dir, 'kept.json'), '{}');
    makeFolder(dir, { name: 'MAIL_DIR', value: dir }, { writable: true });
    expect(fs.readdirSync(dir)).toEqual(['kept.json']);
    makeArtifactsFolder(dir);
    expect(fs.readdirSync(dir).sort()).toEqual([LOCKS_DIR, 'kept.json']);
  });

  it('is checked for writing without touching ARTIFACTS_DIR itself once its locks folder exists (cron runs it every minute)', () => {
    makeArtifactsFolder(dir);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(dir, old, old);
    makeArtifactsFolder(dir);
    expect(Math.round(fs.statSync(dir).mtimeMs)).toBe(old.getTime());
  });

  it('names the setting and the value it was given (DATABASE_PATH: the file, whose folder is made)', () => {
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    const file = path.join(dir, 'a-file', 'app.db');
    expect(() => makeFolder(path.dirname(file), { name: 'DATABASE_PATH', value: file })).toThrow(
      `DATABASE_PATH (${file}): EEXIST: file already exists, mkdir '${path.join(dir, 'a-file')}' (${path.join(dir, 'a-file')} is a file, not a folder: name a folder)`,
    );
  });
});

// An operator's review read "regenerate failed: ENOSPC: no space left on device, write", no folder named.
describe('folderWriteError: a job failing to write in a folder says which setting and what to do', () => {
  const setting = { name: 'ARTIFACTS_DIR', value: '/srv/reads' };
  const errno = (code: string) => Object.assign(new Error(`${code}: something, open '/srv/reads/x'`), { code });
  it.each([
    ['ENOSPC', 'ARTIFACTS_DIR (/srv/reads): the disk holding it is full: free space there (ENOSPC: something, open \'/srv/reads/x\')'],
    ['EDQUOT', 'ARTIFACTS_DIR (/srv/reads): the disk holding it is full: free space there (EDQUOT: something, open \'/srv/reads/x\')'],
    ['EROFS', 'ARTIFACTS_DIR (/srv/reads): its file system is read-only: make it writable (EROFS: something, open \'/srv/reads/x\')'],
    ['EACCES', "ARTIFACTS_DIR (/srv/reads): this process may not write there: give the service's user write access (EACCES: something, open '/srv/reads/x')"],
  ])('%s', (code, message) => {
    const said = folderWriteError(errno(code), setting);
    expect(said).toBeInstanceOf(ConfigError);
    expect(said?.message).toBe(message);
  });

  it('any other error is not one of these', () => {
    expect(folderWriteError(errno('SQLITE_FULL'), setting)).toBeNull();
    expect(folderWriteError(new Error('no code'), setting)).toBeNull();
    expect(folderWriteError(undefined, setting)).toBeNull();
  });

  it.skipIf(!fs.existsSync('/dev/full'))("a real disk full (/dev/full): the system's own error, named", () => {
    let error: unknown;
    try {
      fs.writeFileSync('/dev/full', 'x');
    } catch (e) {
      error = e;
    }
    expect(folderWriteError(error, setting)?.message).toMatch(/^ARTIFACTS_DIR \(\/srv\/reads\): the disk holding it is full: free space there \(ENOSPC: no space left on device/);
  });
});

// A review under UMask=0077: data/ made 0700 by the database side, and nginx (another user) answered 404 for every read.
describe('artifactsUnreachableByOthers: a folder above ARTIFACTS_DIR other users cannot enter', () => {
  it('names the first one, with its mode and what to do; none when every folder above can be entered', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-reach-'));
    try {
      fs.chmodSync(root, 0o755);
      fs.mkdirSync(path.join(root, 'data/artifacts'), { recursive: true });
      fs.chmodSync(path.join(root, 'data'), 0o755);
      expect(artifactsUnreachableByOthers(path.join(root, 'data/artifacts'))).toBeNull();
      fs.chmodSync(path.join(root, 'data'), 0o700);
      expect(artifactsUnreachableByOthers(path.join(root, 'data/artifacts'))).toBe(
        `ARTIFACTS_DIR (${path.join(root, 'data/artifacts')}): other users cannot enter ${path.join(root, 'data')} (mode 700), so a server such as nginx running as another user cannot serve the reads; chmod o+x ${path.join(root, 'data')} if one does`,
      );
      // Entered, not listed, is enough (0711).
      fs.chmodSync(path.join(root, 'data'), 0o711);
      expect(artifactsUnreachableByOthers(path.join(root, 'data/artifacts'))).toBeNull();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
