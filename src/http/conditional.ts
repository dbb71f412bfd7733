// A dynamic JSON read with the same validators and caching as the artifacts: strong ETag from the
// bytes, Last-Modified, and 304 answers to If-None-Match / If-Modified-Since.
import crypto from 'node:crypto';
import { CORS_HEADERS, READ_CACHE_CONTROL } from './cors.js';

export function conditionalJson(request: Request, body: unknown, lastModified: string | null): Response {
  const bytes = JSON.stringify(body);
  const etag = `"${crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  const modified = lastModified ? new Date(Math.floor(Date.parse(lastModified) / 1000) * 1000) : null;
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': READ_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
    ETag: etag,
  };
  if (modified) headers['Last-Modified'] = modified.toUTCString();
  const inm = request.headers.get('if-none-match');
  const ims = request.headers.get('if-modified-since');
  const notModified =
    inm !== null
      ? inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
      : ims !== null && modified !== null && !Number.isNaN(Date.parse(ims)) && modified.getTime() <= Date.parse(ims);
  if (notModified) return new Response(null, { status: 304, headers });
  return new Response(request.method === 'HEAD' ? null : bytes, { status: 200, headers });
}
