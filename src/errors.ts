// Domain errors: small named classes thrown by services and mapped to HTTP statuses in one place
// (src/http/endpoint.ts).
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** Fields that are well-formed but do not fit (an unknown org, a closed division, a guardian missing): 422. */
export class InvalidFieldsError extends Error {
  override name = 'InvalidFieldsError';
  constructor(
    readonly errors: readonly { field: string; message: string }[],
    message = 'Some fields do not fit.',
  ) {
    super(message);
  }
}

/** One field that is well-formed but refers to something that does not fit (unknown org, foreign division). */
export class InvalidFieldError extends InvalidFieldsError {
  override name = 'InvalidFieldError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super([{ field, message }], message);
  }
}

/** A limit other than the client's per-route one (which the endpoint applies): its RateLimit-Policy item. */
export interface RatePolicy {
  name: string;
  quota: number;
  windowS: number;
}

export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(
    message: string,
    readonly retryAfterS: number,
    /** The limit reached, for the RateLimit headers: without it they would still tell the client's budget left. */
    readonly policy?: RatePolicy,
  ) {
    super(message);
  }
}

/**
 * The 422 messages for an id the form's own set-up names and we do not have (or the public cannot see, which is the
 * same to the public): nothing a person typed. The services say them, and the answer pages (src/forms/answer-page.ts)
 * and their Arabic (src/forms/field-messages.ts) read them, from here: a review found the pages' copy of the texts
 * short of the follow form's league, whose parent was told to correct a hidden field.
 */
export const NO_SUCH_ORGANIZATION = 'no organization has this id';
export const NOT_ITS_DIVISION = 'is not a division of this organization';
export const NOT_ITS_LEAGUE = 'is not a league of this organization';
export const SET_UP_MESSAGES: readonly string[] = [NO_SUCH_ORGANIZATION, NOT_ITS_DIVISION, NOT_ITS_LEAGUE];
