import { describe, expect, it } from 'vitest';
import { readRequestTarget } from './request-target.js';

describe('readRequestTarget', () => {
  it.each([
    ['/api/v0/events', { form: 'origin' }],
    ['http://evil.example/api/v0/events', { form: 'absolute', path: '/api/v0/events', authority: 'evil.example' }],
    ['HTTPS://Example.ORG:8443/api/v0/events?x=1', { form: 'absolute', path: '/api/v0/events?x=1', authority: 'Example.ORG:8443' }],
    ['http://example.org', { form: 'absolute', path: '/', authority: 'example.org' }],
    ['http://example.org?a=1', { form: 'absolute', path: '/?a=1', authority: 'example.org' }],
    ['http://[::1]:4321/x', { form: 'absolute', path: '/x', authority: '[::1]:4321' }],
    // The path as sent: dot segments and escapes are left to the handlers, as in the origin form.
    ['http://x/../../etc/passwd', { form: 'absolute', path: '/../../etc/passwd', authority: 'x' }],
    ['http://x/_astro/%2e%2e/%2e%2e/package.json', { form: 'absolute', path: '/_astro/%2e%2e/%2e%2e/package.json', authority: 'x' }],
    ['http://x//double', { form: 'absolute', path: '//double', authority: 'x' }],
  ])('%s → %j', (target, reading) => {
    expect(readRequestTarget(target, 'GET')).toEqual(reading);
  });

  it('reads * as the asterisk form for OPTIONS only', () => {
    expect(readRequestTarget('*', 'OPTIONS')).toEqual({ form: 'asterisk' });
    expect(readRequestTarget('*', 'GET')).toEqual({ form: 'invalid', detail: 'The request target * is for OPTIONS only.' });
  });

  it.each([
    'ftp://example.org/api/v0/events',
    'file:///etc/passwd',
    'http:///api/v0/events',
    'http://user:pass@example.org/api/v0/events',
    'http://example.org#top',
    'http:/api/v0/events',
    'api/v0/events',
    'example.org:443',
  ])('%s is invalid', (target) => {
    expect(readRequestTarget(target, 'GET').form).toBe('invalid');
  });
});
