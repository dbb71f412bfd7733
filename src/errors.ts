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
