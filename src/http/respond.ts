// JSON responses of the write API: readable cross-origin, never cached, never sniffed.
import { CORS_HEADERS } from './cors.js';

export const WRITE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...CORS_HEADERS,
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
});

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...WRITE_HEADERS, ...headers } });
}
