// References into the document's components, and the values the public interface's contract decides. They are written here as the contract states them, not imported from the code: the HTTP
// tests check the code against this document, so the code cannot quietly move away from the contract.
import type { JsonSchema, Ref } from './types.js';

export const schemaRef = (name: string): Ref => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): Ref => ({ $ref: `#/components/responses/${name}` });
export const parameterRef = (name: string): Ref => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): Ref => ({ $ref: `#/components/headers/${name}` });

export const constant = (value: string): JsonSchema => ({ type: 'string', const: value });

/** The headers of every answer that is not cached: writes and problems (rate-limit state included). */
export const uncachedHeaders = (): Record<string, Ref> => ({
  'Cache-Control': headerRef('CacheControlNoStore'),
  'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': headerRef('AccessControlExposeHeaders'),
  'X-Content-Type-Options': headerRef('XContentTypeOptions'),
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
});

export const READ_CACHE = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';
export const NO_STORE = 'no-store';
export const PREFLIGHT_CACHE = 'public, max-age=86400';
export const ALLOW_HEADERS = 'Content-Type, Idempotency-Key, If-None-Match, If-Modified-Since, Cache-Control';
export const READ_ALLOW = 'GET, HEAD, OPTIONS';
export const WRITE_ALLOW = 'POST, OPTIONS';
export const UNKNOWN_ROUTE_ALLOW = 'GET, HEAD, POST, OPTIONS';

/** Where curl examples point when the document is built without a server URL. */
export const DEFAULT_EXAMPLE_BASE = 'http://localhost:4321';
