// Serves the rendered read artifacts (endpoints 1, 2, 3, 5 and the OpenAPI document) straight from ARTIFACTS_DIR: no database.
// Files are kept in memory and re-checked with one stat at most once a second, so a request costs a
// map lookup; the regeneration job replaces files atomically and the next check picks them up.
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseEncoding, type Encoding } from '../http/accept.js';
import { isNotModified, strongEtag } from '../http/conditional.js';
import { API_HEADERS, READ_CACHE_CONTROL } from '../http/headers.js';
import { answerNonReadMethods, sendProblem } from '../http/problem.js';
import { matchArtifactRoute } from '../publish/routes.js';
import { hasVariants } from '../publish/store.js';
import type { RouteHandler } from './http-server.js';

const ALLOW = ['GET', 'HEAD', 'OPTIONS'];
const RECHECK_MS = 1_000;

interface Variant {
  body: Buffer;
  etag: string;
  lastModified: string;
  mtimeS: number;
  checkedAt: number;
  /** Which file this is on disk (inode and modification time): every write is a new file renamed into place. */
  version: string;
  /** A .gz or .br: the version of the identity it was last checked beside (its bytes say what that identity says). */
  pairedWith?: string;
}

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };

/** Bytes of artifacts kept in memory; beyond it the least recently used are dropped (and read again when asked). */
export const CACHE_BUDGET_BYTES = 64 * 1024 * 1024;

export function artifactHandler(artifactsDir: string, budgetBytes = CACHE_BUDGET_BYTES): RouteHandler {
  const root = path.resolve(artifactsDir);
  // Insertion order is recency: a hit moves its entry to the end, eviction takes from the start.
  const cache = new Map<string, Variant>();
  let cachedBytes = 0;

  const forget = (file: string) => {
    const entry = cache.get(file);
    if (entry) cachedBytes -= entry.body.length;
    cache.delete(file);
  };
  const remember = (file: string, variant: Variant) => {
    forget(file);
    cache.set(file, variant);
    cachedBytes += variant.body.length;
    for (const [oldest] of cache) {
      if (cachedBytes <= budgetBytes || oldest === file) break;
      forget(oldest);
    }
  };

  /**
   * The file, from memory when checked less than a second ago. A variant is also checked whenever the identity beside
   * it is not the one it was last checked with (`pairedWith`): the store writes an artifact's variants before its
   * identity and removes them before a shorter identity, so a variant looked at after its identity is as new as it
   * or gone, never an older artifact's bytes sent under the new identity's Last-Modified.
   */
  function load(file: string, now: number, pairedWith?: string): Variant | null {
    const cached = cache.get(file);
    if (cached !== undefined) {
      cache.delete(file);
      cache.set(file, cached);
      if (now - cached.checkedAt < RECHECK_MS && cached.pairedWith === pairedWith) return cached;
    }
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      forget(file);
      return null;
    }
    const version = `${stat.ino}:${stat.mtimeMs}`;
    if (cached && cached.version === version) {
      cached.checkedAt = now;
      cached.pairedWith = pairedWith;
      return cached;
    }
    let body: Buffer;
    try {
      body = fs.readFileSync(file);
    } catch {
      forget(file);
      return null;
    }
    const variant: Variant = {
      body,
      etag: strongEtag(body),
      lastModified: new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString(),
      mtimeS: Math.floor(stat.mtimeMs / 1000),
      checkedAt: now,
      version,
      pairedWith,
    };
    remember(file, variant);
    return variant;
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (!pathname.startsWith('/api/v0/')) return false;
    const route = matchArtifactRoute(pathname);
    if (route === null) return false;
    if (answerNonReadMethods(req.method, res, ALLOW)) return true;
    const head = req.method === 'HEAD';
    if (route.kind === 'bad-id') {
      sendProblem(res, 404, 'No public event or team has this id.', { head });
      return true;
    }
    const now = Date.now();
    const identityFile = path.join(root, route.file);
    const identity = load(identityFile, now);
    if (!identity) {
      if (route.kind === 'events' || route.kind === 'openapi') {
        const what = route.kind === 'events' ? 'The event list' : 'The API document';
        sendProblem(res, 503, `${what} has not been rendered yet.`, { head, headers: { 'Retry-After': '5' } });
      } else if (route.kind === 'team-calendar') sendProblem(res, 404, `No team "${route.teamId}" with a public match.`, { head });
      else sendProblem(res, 404, `No public event "${route.eventId}".`, { head });
      return true;
    }
    // A short artifact has no variants (store.ts): not looked for, and one left by an older release never served.
    let encoding = hasVariants(identity.body.length) ? chooseEncoding(req.headers['accept-encoding']) : 'identity';
    let variant = encoding === 'identity' ? identity : load(identityFile + SUFFIX[encoding], now, identity.version);
    if (!variant) {
      encoding = 'identity';
      variant = identity;
    }
    const headers: Record<string, string | number> = {
      ...API_HEADERS,
      'Content-Type': route.contentType,
      'Cache-Control': READ_CACHE_CONTROL,
      ETag: variant.etag,
      'Last-Modified': identity.lastModified,
      Vary: 'Accept-Encoding',
    };
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    if (route.kind === 'calendar') headers['Content-Disposition'] = `inline; filename="${route.eventId}.ics"`;
    if (route.kind === 'team-calendar') headers['Content-Disposition'] = `inline; filename="${route.teamId}.ics"`;

    const current = { ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] };
    if (isNotModified(current, variant.etag, identity.mtimeS, now)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    headers['Content-Length'] = variant.body.length;
    res.writeHead(200, headers);
    res.end(head ? undefined : variant.body);
    return true;
  };
}
