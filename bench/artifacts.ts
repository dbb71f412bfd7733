// What is on disk under ARTIFACTS_DIR, file by file, to tell which files a regeneration really rewrote:
// an atomic replace (temp file + rename) gives a new inode and mtime, whatever the content.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface FileState {
  ino: bigint;
  mtimeNs: bigint;
  size: bigint;
  sha1: string;
}

export type Snapshot = Map<string, FileState>;

/** Every file under root (relative paths, '/' separated), with its inode, mtime, size and content hash. */
export function snapshot(root: string): Snapshot {
  const out: Snapshot = new Map();
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const stat = fs.statSync(full, { bigint: true });
        const sha1 = crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex');
        out.set(path.relative(root, full).split(path.sep).join('/'), { ino: stat.ino, mtimeNs: stat.mtimeNs, size: stat.size, sha1 });
      }
    }
  };
  walk(root);
  return out;
}

export interface SnapshotDiff {
  added: string[];
  removed: string[];
  /** Replaced or modified (inode, mtime or size moved). */
  rewritten: string[];
  /** Rewritten although the bytes are the same as before: wasted writes. */
  rewrittenSameContent: string[];
  /** Bytes changed: the files that had to be rewritten. */
  contentChanged: string[];
}

export function diffSnapshots(before: Snapshot, after: Snapshot): SnapshotDiff {
  const diff: SnapshotDiff = { added: [], removed: [], rewritten: [], rewrittenSameContent: [], contentChanged: [] };
  for (const [rel, a] of after) {
    const b = before.get(rel);
    if (!b) {
      diff.added.push(rel);
      continue;
    }
    const touched = a.ino !== b.ino || a.mtimeNs !== b.mtimeNs || a.size !== b.size;
    if (touched) diff.rewritten.push(rel);
    if (a.sha1 !== b.sha1) diff.contentChanged.push(rel);
    else if (touched) diff.rewrittenSameContent.push(rel);
  }
  for (const rel of before.keys()) if (!after.has(rel)) diff.removed.push(rel);
  for (const list of Object.values(diff)) (list as string[]).sort();
  return diff;
}

/** "a/b.json", "a/b.json.gz", "a/b.json.br" → "a/b.json{,.gz,.br}" for short listings. */
export function groupVariants(files: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const m = /^(.*?)(\.gz|\.br)?$/.exec(f)!;
    const base = m[1]!;
    const list = groups.get(base) ?? [];
    list.push(m[2] ?? '');
    groups.set(base, list);
  }
  return [...groups].map(([base, suffixes]) =>
    suffixes.length === 1 ? base + suffixes[0] : `${base}{${suffixes.sort((a, b) => a.length - b.length || a.localeCompare(b)).join(',')}}`,
  );
}
