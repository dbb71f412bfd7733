// JSON answers of the write API: readable cross-origin, never cached, never sniffed.
import { API_HEADERS, NO_STORE } from './headers.js';

export const WRITE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...API_HEADERS,
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': NO_STORE,
});

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...WRITE_HEADERS, ...headers } });
}
