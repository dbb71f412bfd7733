// One HTTP request with node:http (fetch would decode the body and hide the framing): status, headers as
// sent (names lowercased by node) and the bytes, to compare a server with its floor or nginx.
import crypto from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  header(name: string): string | null;
  body: Buffer;
  sha1: string;
}

export function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          header: (name) => {
            const v = res.headers[name.toLowerCase()];
            return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
          },
          body,
          sha1: crypto.createHash('sha1').update(body).digest('hex'),
        });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${options.method ?? 'GET'} ${url} timed out`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The headers two answers disagree on, ignoring `ignore` (e.g. date): "name: a ≠ b". */
export function headerDifferences(a: Answer, b: Answer, ignore: readonly string[] = ['date']): string[] {
  const names = new Set([...Object.keys(a.headers), ...Object.keys(b.headers)].filter((n) => !ignore.includes(n)));
  return [...names].sort().flatMap((n) => (a.header(n) === b.header(n) ? [] : [`${n}: ${a.header(n) ?? '-'} ≠ ${b.header(n) ?? '-'}`]));
}
