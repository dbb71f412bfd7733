// Astro middleware (endpoints and pages rendered by Astro; the artifacts never pass here).
// API responses always carry CORS and nosniff, even when something failed deep down; pages get a strict
// Content-Security-Policy and never leak their URL (which may hold a token) through Referer.
import { defineMiddleware } from 'astro:middleware';
import { CORS_HEADERS } from './http/cors.js';
import { problemResponse } from './http/problem.js';

const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export const onRequest = defineMiddleware(async (context, next) => {
  const isApi = context.url.pathname.startsWith('/api/');
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    console.error('request failed:', error);
    return problemResponse(500, 'The server could not answer this request.');
  }
  const headers = isApi ? { ...CORS_HEADERS, 'X-Content-Type-Options': 'nosniff' } : PAGE_HEADERS;
  try {
    for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
  } catch {
    // Immutable headers (a Response from fetch): copy it.
    response = new Response(response.body, response);
    for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
  }
  return response;
});
