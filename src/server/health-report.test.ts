// The mail check of /healthz (test/health-http.test.ts shows it on the server): the backlog's age, and how sending
// goes, which only counts while an email waits.
import { describe, expect, it } from 'vitest';
import { MAIL_FAILING_LIMIT_S, mailCheck } from './health-report.js';

const ago = (s: number) => performance.now() - s * 1000;

describe('mailCheck', () => {
  it.each([
    ['nothing waits, nothing failed', { failingSinceMs: null, setupRefused: false }, null, { ok: true, sending_failing_for_s: null, setup_refused: false }],
    ['an email waits a minute, sends failing for a minute', { failingSinceMs: ago(60), setupRefused: false }, 60, { ok: true, sending_failing_for_s: 60, setup_refused: false }],
    ['sends failing past the limit', { failingSinceMs: ago(MAIL_FAILING_LIMIT_S + 5), setupRefused: false }, 30, { ok: false, sending_failing_for_s: MAIL_FAILING_LIMIT_S + 5 }],
    ['the setup refused, an email waiting', { failingSinceMs: ago(1), setupRefused: true }, 1, { ok: false, setup_refused: true }],
    // A review: the email that failed was cancelled at send time (or given up), and a quiet instance stayed 503 for hours.
    ['sends failed an hour ago, nothing waits now', { failingSinceMs: ago(3600), setupRefused: false }, null, { ok: true, sending_failing_for_s: null }],
    ['the setup refused, nothing waits now', { failingSinceMs: ago(3600), setupRefused: true }, null, { ok: true, setup_refused: false }],
    ['the backlog past its limit', { failingSinceMs: null, setupRefused: false }, 1801, { ok: false, oldest_pending_age_s: 1801 }],
  ] as const)('%s', (_label, sending, oldest, expected) => {
    expect(mailCheck({ ...sending }, oldest, 1800, 0)).toMatchObject(expected);
  });
});

// The mail review: an organization's registration_emails address Postmark refused lost every notice, and /healthz said
// nothing. The count is said, for a monitor to alert on; it fails nothing (the email was refused for itself).
it('mailCheck says how many registration notices were refused in the last day, and stays ok', () => {
  expect(mailCheck({ failingSinceMs: null, setupRefused: false }, null, 1800, 3)).toEqual({
    ok: true, oldest_pending_age_s: null, limit_s: 1800, sending_failing_for_s: null, setup_refused: false, registration_notices_refused_1d: 3,
  });
});
