// The artifacts directory: files written atomically (a reader sees the old bytes or the new, never
// half a file), only when their bytes changed, each with gzip and brotli variants beside it unless it is too short
// to gain from them (hasVariants).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { makeReadableFolder, umaskTakes } from '../folders.js';

/** The suffixes of an artifact's compressed variants, and of all its files (identity first). */
const COMPRESSED = ['.gz', '.br'] as const;
const FILES = ['', ...COMPRESSED] as const;

/**
 * Below this many bytes an artifact is stored without .gz and .br. gzip's framing alone is 18 bytes: measured on
 * our JSON, the variants of "[]" (a league's bracket, a cup's standings: 2,000 of the bench's 21,731 artifacts) are
 * 22 and 6 bytes, of an 83-byte table 98 and 83, of a 177-byte one 133 and 118. The node server, nginx's
 * gzip_static and brotli_static and a CDN send the identity bytes when a variant is missing.
 */
export const MIN_COMPRESSED_BYTES = 128;

/** Whether an artifact of `length` bytes has .gz and .br beside it: the one place the rule is applied. */
export function hasVariants(length: number): boolean {
  return length >= MIN_COMPRESSED_BYTES;
}

export function contentHash(bytes: Buffer | string): string {
  return crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
}

/**
 * Names the temporary files of this process apart (the process id keeps two processes apart). A counter, not random
 * bytes: those cost about a second of a full render of the benchmark's 65,000 files.
 */
let temporaries = 0;

/**
 * Writes to a temporary file in the same directory, then renames it over the target: a reader sees the old
 * bytes or the new, never a part. `durable` (the default: the manifest, the run marker, the publish state) also
 * fsyncs the file before the rename and its directory after it, so that the new name survives a power loss before
 * whatever is done next (the run marker is removed after the manifest); the artifacts are flushed together once
 * per run instead (flush()), which costs one flush, not thousands.
 */
export function writeFileAtomic(file: string, bytes: Uint8Array | string, options: { durable?: boolean; mkdir?: boolean; mode?: number } = {}): void {
  const durable = options.durable ?? true;
  const mode = options.mode ?? 0o644;
  if (options.mkdir !== false) fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${(temporaries++).toString(36)}.tmp`);
  const fd = fs.openSync(temp, 'w', mode);
  try {
    try {
      // The mode asked for, whatever the umask (src/folders.ts umaskTakes).
      if (umaskTakes(mode)) fs.fchmodSync(fd, mode);
      fs.writeSync(fd, typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
      if (durable) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    // Nothing is left beside the target, a rename refused included (the target a folder): a review's export to a
    // folder said "nothing written" and left a hidden copy of every registration.
    fs.rmSync(temp, { force: true });
    throw error;
  }
  if (durable) fsyncDirectory(path.dirname(file));
}

function fsyncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Brotli quality 6 and gzip level 9. Measured on the 6,000 artifacts of the benchmark dataset: brotli 9
 * took 7.1 s of a full regeneration, quality 6 takes 1.2 s for files 0.64% larger (quality 11 is ~20x
 * slower still). null below MIN_COMPRESSED_BYTES: the artifact has no variants.
 */
export function compressVariants(bytes: Uint8Array): { gz: Buffer; br: Buffer } | null {
  if (!hasVariants(bytes.length)) return null;
  return {
    gz: zlib.gzipSync(bytes, { level: 9 }),
    br: zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
  };
}

/** Whether `file` was there to remove. */
function unlinkIfPresent(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return false;
  }
}

export interface StoreStats {
  written: number;
  unchanged: number;
  removed: number;
}

/**
 * One artifact's files, ready to be written: identity, gzip and brotli bytes back to back (the identity alone when it
 * is too short for variants) in one buffer of its own (a render worker transfers it to the thread that writes,
 * render-threads.ts, without a copy).
 */
export interface PreparedArtifact {
  relPath: string;
  bytes: ArrayBuffer;
  /** Lengths of the identity and gzip parts; brotli is the rest (none of either when !hasVariants(identityLength)). */
  identityLength: number;
  gzLength: number;
}

function prepareArtifact(relPath: string, identity: Uint8Array): PreparedArtifact {
  const variants = compressVariants(identity);
  // A copy of its own: `identity` is a view of the store's scratch buffer (Buffer#slice would be one too).
  if (variants === null) return { relPath, bytes: new Uint8Array(identity).buffer, identityLength: identity.length, gzLength: 0 };
  const { gz, br } = variants;
  const all = new Uint8Array(identity.length + gz.length + br.length);
  all.set(identity, 0);
  all.set(gz, identity.length);
  all.set(br, identity.length + gz.length);
  return { relPath, bytes: all.buffer, identityLength: identity.length, gzLength: gz.length };
}

/**
 * The artifacts directory. put() decides whether an artifact changed and compresses it; write() puts its files on
 * disk. A store given a `handOff` passes its changed artifacts to it instead of writing them: a render worker's, whose
 * files the calling thread writes (render-threads.ts), so that one thread creates files in a directory at a time.
 */
export class ArtifactStore {
  readonly stats: StoreStats = { written: 0, unchanged: 0, removed: 0 };
  private readonly swept = new Set<string>();
  private readonly made = new Set<string>();
  /** Called once, before this store first writes or removes a file (regenerate.ts marks its run unfinished there). */
  beforeFirstChange: (() => void) | undefined;
  private changing = false;

  private willChange(): void {
    if (this.changing) return;
    // After the call: a call that throws (the mark could not be written) is made again before the next change.
    this.beforeFirstChange?.();
    this.changing = true;
  }

  constructor(
    readonly root: string,
    private readonly handOff?: (artifact: PreparedArtifact) => void,
  ) {}

  /**
   * A run killed between writing a temporary file and renaming it leaves the temporary file behind (never
   * served: the server maps URLs to final names only). Clear those of a directory once per run, when
   * writing there; a minute's age keeps the files of a run still going in another process.
   */
  private sweepTemporaries(dir: string): void {
    if (this.swept.has(dir)) return;
    this.swept.add(dir);
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    const cutoff = Date.now() - 60_000;
    for (const name of names) {
      if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
      const file = path.join(dir, name);
      try {
        if (fs.statSync(file).mtimeMs < cutoff) fs.unlinkSync(file);
      } catch {
        /* gone already */
      }
    }
  }

  /**
   * The UTF-8 bytes of the artifact being written, reused from one put to the next. A Buffer per artifact lives
   * outside V8's heap until a collection finds it: a full render encodes 270 MB that way, and two render threads
   * held well over 100 MB of dead buffers between their collections.
   */
  private scratch = Buffer.alloc(0);

  private encode(content: string | readonly string[]): Buffer {
    const parts = typeof content === 'string' ? [content] : content;
    let length = 0;
    for (const part of parts) length += part.length;
    // UTF-8 takes at most three bytes per UTF-16 code unit. Allocated at the first put: a quiet run writes nothing.
    if (length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(length * 3, this.scratch.length * 2, 1 << 16));
    let end = 0;
    for (const part of parts) end += this.scratch.write(part, end, 'utf8');
    return this.scratch.subarray(0, end);
  }

  /**
   * Writes the artifact at `relPath` when its content hash is not `previousHash` or a file of it is missing; its hash.
   * `content` in parts (a feed's header, VEVENTs and end) is encoded part after part, never joined into one string.
   */
  put(relPath: string, content: string | readonly string[], previousHash: string | undefined): string {
    // Valid only until the next put: everything below is synchronous.
    const bytes = this.encode(content);
    const hash = contentHash(bytes);
    const file = path.join(this.root, relPath);
    // Unchanged: the bytes the last run wrote, and exactly the files they should have. A short artifact's .gz or .br
    // beside it (left by a release that compressed every artifact, or by a run stopped between a longer version's
    // variants and its identity) would be served in its place: it is written again, which removes them.
    const variants = hasVariants(bytes.length);
    if (hash === previousHash && FILES.every((v) => fs.existsSync(file + v) === (v === '' || variants))) {
      this.stats.unchanged++;
      return hash;
    }
    const artifact = prepareArtifact(relPath, bytes);
    if (this.handOff) this.handOff(artifact);
    else this.write(artifact);
    return hash;
  }

  /** An artifact's files, each written atomically: variants first (or stale ones removed), identity last. */
  write(artifact: PreparedArtifact): void {
    this.willChange();
    const file = path.join(this.root, artifact.relPath);
    const dir = path.dirname(file);
    if (!this.made.has(dir)) {
      makeReadableFolder(dir);
      this.made.add(dir);
    }
    this.sweepTemporaries(dir);
    const { bytes, identityLength, gzLength } = artifact;
    // Variants first, identity last: a server that sees the new identity file finds fresh variants, or none (the
    // old identity is served in place of a variant removed before it is replaced, never a longer artifact's variant).
    const options = { durable: false, mkdir: false };
    if (hasVariants(identityLength)) {
      writeFileAtomic(file + '.gz', new Uint8Array(bytes, identityLength, gzLength), options);
      writeFileAtomic(file + '.br', new Uint8Array(bytes, identityLength + gzLength), options);
    } else this.removeExisting(file, COMPRESSED);
    writeFileAtomic(file, new Uint8Array(bytes, 0, identityLength), options);
    this.stats.written++;
  }

  /**
   * Flushes what this run wrote to disk (one syncfs of the artifacts' file system), before the manifest
   * records it. Without it a power loss could leave renamed but empty files that the manifest calls current.
   */
  flush(): void {
    if (this.stats.written === 0 && this.stats.removed === 0) return;
    const result = spawnSync('sync', ['-f', this.root], { stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`could not flush ${this.root} to disk (sync -f: ${result.status ?? result.error?.message})`);
  }

  /**
   * Removes those of `file`'s files (by suffix, in this order) that exist; whether there was any. Looked for first: an
   * unlink that fails builds an error (a full render has thousands of short artifacts without variants), and a run
   * with nothing to remove changes nothing, so it marks nothing (regenerate.ts).
   */
  private removeExisting(file: string, suffixes: readonly string[]): boolean {
    const present = suffixes.filter((v) => fs.existsSync(file + v));
    if (present.length === 0) return false;
    this.willChange();
    for (const v of present) unlinkIfPresent(file + v);
    return true;
  }

  remove(relPath: string): void {
    const file = path.join(this.root, relPath);
    // Identity first: once it is gone the route answers 404 and the variants are never looked at.
    if (this.removeExisting(file, FILES)) this.stats.removed++;
    // A killed run's temporary file would keep the folder, and its event listed as rendered, for ever.
    this.sweepTemporaries(path.dirname(file));
    // Drop the event's folder when it became empty.
    try {
      fs.rmdirSync(path.dirname(file));
    } catch {
      /* not empty, or already gone */
    }
  }
}
