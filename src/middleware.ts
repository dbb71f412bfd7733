// Astro middleware: every endpoint and page Astro renders passes here (the artifacts never do). API answers
// always carry CORS and nosniff, pages their strict headers (src/http/headers.ts), even when something failed
// deep down; a failure is the one 500. Astro's image endpoint (/_image) is not used here: it answers 404.
import { defineMiddleware } from 'astro:middleware';
import { API_HEADERS, PAGE_HEADERS } from './http/headers.js';
import { internalError, problemResponse } from './http/problem.js';

export const onRequest = defineMiddleware(async (context, next) => {
  const { pathname } = context.url;
  if (pathname === '/_image' || pathname.startsWith('/_image/')) {
    return problemResponse(404, `No route for ${context.request.method} ${pathname}`, { head: context.request.method === 'HEAD' });
  }
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    return internalError(error, `${context.request.method} ${pathname}`);
  }
  const headers = pathname.startsWith('/api/') ? API_HEADERS : PAGE_HEADERS;
  try {
    for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
  } catch {
    // Immutable headers (a Response from fetch): copy it.
    response = new Response(response.body, response);
    for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
  }
  return response;
});
