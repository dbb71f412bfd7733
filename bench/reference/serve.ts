// What the reference servers share: a bare node:http server on 127.0.0.1:PORT with the real server's
// timeouts (src/server/http-server.ts), the database opened exactly as the real server opens it, a capped
// body reader, and a clean stop on SIGTERM. Nothing here runs per request beyond what node:http does.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type Database from 'better-sqlite3';
import { openSqlite } from '../../src/db/connect.js';
import { MAX_BODY_BYTES } from '../../src/http/body.js';
import { sendProblem } from '../../src/http/problem.js';

/** The database of DATABASE_PATH, with the pragmas of src/db/connect.ts (called, not copied). */
export function openDatabase(): Database.Database {
  const file = process.env.DATABASE_PATH;
  if (!file) throw new Error('DATABASE_PATH is not set');
  return openSqlite(file);
}

/** "journal_mode=wal synchronous=2 …": printed when listening, so a run's log shows what the floor ran with. */
export function pragmas(db: Database.Database): string {
  const names = ['journal_mode', 'synchronous', 'foreign_keys', 'busy_timeout', 'secure_delete'];
  return names.map((n) => `${n}=${String(db.pragma(n, { simple: true }))}`).join(' ');
}

/** The body as JSON; null when it is larger than the real endpoint accepts or is not JSON. */
export function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return resolve(null);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(null);
      }
    });
    req.on('error', reject);
  });
}

/**
 * A 2xx JSON answer framed as Astro frames it (Transfer-Encoding: chunked, no Content-Length), so the floor
 * sends the same bytes on the wire.
 */
export function sendJson(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, headers);
  res.write(body);
  res.end();
}

/** Listens on 127.0.0.1:$PORT and prints "NAME listening on URL (DETAIL)" once it does. */
export function serve(name: string, detail: string, handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): http.Server {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error('PORT is not set');
  const server = http.createServer(async (req, res) => {
    try {
      await handle(req, res);
    } catch (error) {
      console.error(`${name}: request failed:`, error);
      if (!res.headersSent) sendProblem(res, 500, 'The reference server could not answer this request.');
      else res.destroy();
    }
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  server.listen(port, '127.0.0.1', () => console.log(`${name} listening on http://127.0.0.1:${port} (${detail})`));
  process.once('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
  return server;
}
