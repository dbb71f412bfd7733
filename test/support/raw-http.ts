// Shared by the reliability tests: raw requests with a deadline, a raw socket, the response checks of the
// contract (problem details, CORS, nosniff) and the files of ARTIFACTS_DIR.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export interface Outgoing {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request on its own connection (no keep-alive pool, so one test's socket state never leaks into the
 * next request), with a deadline: a server that does not answer is a failure, not a hung test.
 */
export function send(base: string, target: string, options: Outgoing = {}, timeoutMs = 10_000): Promise<Reply> {
  const url = new URL(base);
  const headers: Record<string, string> = { ...options.headers };
  // node's client frames a body only for the methods it expects one with: a GET or OPTIONS body would go out
  // unframed and read as a second, garbage request. Frame every body explicitly.
  const names = Object.keys(headers).map((k) => k.toLowerCase());
  if (options.body !== undefined && !names.includes('content-length') && !names.includes('transfer-encoding')) {
    headers['content-length'] = String(Buffer.byteLength(options.body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: target,
        method: options.method ?? 'GET',
        headers,
        agent: false,
        // The server's answer is checked as sent, whatever its size.
        maxHeaderSize: 64 * 1024,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(options.body);
  });
}

/** Writes raw bytes on a fresh connection, half-closes, and returns whatever came back (latin1). */
export function rawExchange(base: string, bytes: Buffer, timeoutMs = 5_000): Promise<{ answer: string; error?: string }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = '';
    let error: string | undefined;
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', (e) => (error = e.message));
    socket.on('close', () => resolve(error === undefined ? { answer } : { answer, error }));
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.end(bytes);
  });
}

/** The status line's code of a raw answer, or null when nothing (or no HTTP) came back. */
export function rawStatus(answer: string): number | null {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
  return m ? Number(m[1]) : null;
}

const header = (res: Reply, name: string): string | undefined => {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
};
export { header };

/** RFC 9457 problem details as the contract documents them; returns what is wrong ([] when nothing). */
export function problemViolations(res: Reply, method: string): string[] {
  const out: string[] = [];
  if (header(res, 'content-type') !== 'application/problem+json') {
    out.push(`${res.status} with Content-Type ${JSON.stringify(header(res, 'content-type'))}, not application/problem+json`);
  }
  if (method === 'HEAD') {
    if (res.body.length !== 0) out.push('HEAD answered with a body');
    return out;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    out.push(`${res.status} body is not JSON: ${JSON.stringify(res.text.slice(0, 120))}`);
    return out;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [...out, `${res.status} body is not an object`];
  const p = body as Record<string, unknown>;
  const extra = Object.keys(p).filter((k) => !['type', 'title', 'status', 'detail', 'errors'].includes(k));
  if (extra.length > 0) out.push(`problem has undocumented members ${extra.join(', ')}`);
  if (typeof p.type !== 'string' || p.type === '') out.push('problem.type is not a string');
  if (typeof p.title !== 'string' || p.title === '') out.push('problem.title is not a string');
  if (typeof p.detail !== 'string') out.push('problem.detail is not a string');
  if (p.status !== res.status) out.push(`problem.status ${JSON.stringify(p.status)} differs from the HTTP status ${res.status}`);
  if (p.errors !== undefined) {
    const ok =
      Array.isArray(p.errors) &&
      p.errors.every(
        (e: unknown) =>
          e !== null &&
          typeof e === 'object' &&
          Object.keys(e).sort().join() === 'field,message' &&
          typeof (e as Record<string, unknown>).field === 'string' &&
          typeof (e as Record<string, unknown>).message === 'string',
      );
    if (!ok) out.push(`problem.errors is not an array of {field, message}: ${JSON.stringify(p.errors).slice(0, 200)}`);
  }
  return out;
}

/** Headers every /api/ response carries (contract: CORS everywhere, and never sniffed). */
export function apiHeaderViolations(res: Reply): string[] {
  const out: string[] = [];
  if (header(res, 'access-control-allow-origin') !== '*') out.push(`${res.status} without Access-Control-Allow-Origin: *`);
  if (header(res, 'x-content-type-options') !== 'nosniff') out.push(`${res.status} without X-Content-Type-Options: nosniff`);
  return out;
}

/** Every file under a directory, as paths relative to it (forward slashes). */
export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  visit('');
  return out.sort();
}

/** The bytes of a file as its reader would see them: .gz and .br decompressed. */
export function decodedFile(file: string): Buffer {
  const bytes = fs.readFileSync(file);
  if (file.endsWith('.gz')) return zlib.gunzipSync(bytes);
  if (file.endsWith('.br')) return zlib.brotliDecompressSync(bytes);
  return bytes;
}

/** A response body decoded per its Content-Encoding. */
export function decodedBody(res: Reply): Buffer {
  const enc = header(res, 'content-encoding');
  if (enc === 'gzip') return zlib.gunzipSync(res.body);
  if (enc === 'br') return zlib.brotliDecompressSync(res.body);
  return res.body;
}

/**
 * Text to search for leaked values: the raw text, plus for iCalendar the unfolded and unescaped text
 * (a value can be folded over two lines or have its commas escaped), plus for JSON every string value.
 */
export function searchableText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  const parts = [text];
  if (text.startsWith('BEGIN:VCALENDAR')) {
    parts.push(text.replace(/\r\n[ \t]/g, '').replace(/\\([,;\\])/g, '$1').replace(/\\[nN]/g, '\n'));
  }
  try {
    const strings: string[] = [];
    const collect = (v: unknown) => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === 'object') Object.values(v).forEach(collect);
    };
    collect(JSON.parse(text));
    parts.push(strings.join('\n'));
  } catch {
    // not JSON
  }
  return parts.join('\n');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
