// How a Postmark refusal is read: the email's own fault (given up), our setup's, or Postmark's (paused, retried).
import { Errors } from 'postmark';
import { describe, expect, it } from 'vitest';
import { classifyPostmarkError } from './postmark.js';

describe('classifyPostmarkError', () => {
  it.each([
    // status, ErrorCode, message → permanent, addressRefused, setupRefused, everyEmail
    [0, 0, 'fetch failed: ECONNREFUSED 127.0.0.1:1', false, false, false, true],
    [0, 0, 'Request timed out', false, false, false, true],
    [500, 0, 'Internal Server Error', false, false, false, true],
    [503, 0, 'Service Unavailable', false, false, false, true],
    [429, 0, 'Rate limit exceeded', false, false, false, true],
    [401, 10, 'No Account or Server API tokens were supplied', false, false, true, true],
    [422, 400, 'Sender signature not found', false, false, true, true],
    [422, 300, "Invalid 'From' address: 'x@example.org' is not a verified sender signature.", false, false, true, true],
    [422, 300, "Invalid 'To' address: 'fan@example.com'.", true, true, false, false],
    [422, 406, 'Found inactive addresses: fan@example.com.', true, true, false, false],
    [413, 0, 'Request entity too large', true, false, false, false],
  ] as const)('%i ErrorCode %i (%s)', (status, code, message, permanent, addressRefused, setupRefused, everyEmail) => {
    const error = classifyPostmarkError(new Errors.PostmarkError(message, code, status));
    expect({ permanent: error.permanent, addressRefused: error.addressRefused, setupRefused: error.setupRefused, everyEmail: error.everyEmail }).toEqual({
      permanent,
      addressRefused,
      setupRefused,
      everyEmail,
    });
  });

  it('takes a failure of the client itself for one email, not every one', () => {
    expect(classifyPostmarkError(new TypeError('boom'))).toMatchObject({ permanent: false, everyEmail: false });
  });
});
