// Every page of src/pages has its methods in PAGE_METHODS: a page added without them would render for any method.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPageMethod, PAGE_METHODS, pageMethods } from './page-methods.js';

const PAGES = path.resolve(import.meta.dirname, '../pages');

function pageRoutes(dir = PAGES): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pageRoutes(full);
    if (!entry.name.endsWith('.astro')) return []; // the API's endpoints (.ts) answer their methods themselves
    const route = '/' + path.relative(PAGES, full).replace(/\.astro$/, '').replace(/(^|\/)index$/, '');
    return [route.length > 1 ? route.replace(/\/$/, '') : route];
  });
}

describe('the methods of the pages', () => {
  it('lists every page of src/pages, and nothing else', () => {
    expect(Object.keys(PAGE_METHODS).sort()).toEqual(pageRoutes().sort());
  });

  it('gives the forms POST, and the pages that only read GET and HEAD', () => {
    expect(Object.fromEntries(Object.entries(PAGE_METHODS).map(([route, allow]) => [route, allow.join(', ')]))).toEqual({
      '/': 'GET, HEAD, OPTIONS',
      '/docs': 'GET, HEAD, OPTIONS',
      '/rsvp': 'GET, HEAD, POST, OPTIONS',
      '/follow/confirm': 'GET, HEAD, POST, OPTIONS',
      '/follow/unsubscribe': 'GET, HEAD, POST, OPTIONS',
    });
  });

  it.each([
    ['/', 'POST', 405],
    ['/docs', 'POST', 405],
    ['/docs/', 'PUT', 405],
    ['/rsvp', 'DELETE', 405],
    ['/rsvp', 'OPTIONS', 204],
    ['/rsvp', 'POST', undefined],
    ['/docs', 'GET', undefined],
    ['/docs', 'HEAD', undefined],
    ['/api/v0/follow', 'PUT', undefined], // an endpoint: its own ALL answers
    ['/no-such-page', 'POST', undefined],
  ])('%s %s → %s', async (route, method, status) => {
    const res = answerPageMethod(route, method);
    expect(res?.status).toBe(status);
    if (status === 405) {
      expect(res!.headers.get('allow')).toBe(pageMethods(route)!.join(', '));
      expect(await res!.json()).toMatchObject({ type: '/docs#problem-method-not-allowed', status: 405 });
    }
  });
});
