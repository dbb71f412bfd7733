// Size limits of what the service reads from a request.

/** The largest request body read, by the API and the pages alike (contract: 413 beyond it). */
export const MAX_BODY_BYTES = 16 * 1024;
