// Domain errors: small named classes thrown by services and mapped to HTTP statuses in one place
// (src/http/endpoint.ts).
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** A field that is well-formed but refers to something that does not fit (unknown org, foreign division). */
export class InvalidFieldError extends Error {
  override name = 'InvalidFieldError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}
