// The client's address for rate limits. X-Forwarded-For is believed only when TRUST_PROXY says a proxy
// sets it, and then only its last entry: the one our proxy appended. Earlier entries come from the client
// and can be forged.
/** The same, from a node request's X-Forwarded-For (one header or several) and its socket. */
export function nodeClientAddress(
  req: Pick<import('node:http').IncomingMessage, 'headers' | 'socket'>,
  trustProxy: boolean,
): string {
  const forwarded = req.headers['x-forwarded-for'];
  const value = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
  return clientAddress(new Headers(value ? { 'x-forwarded-for': value } : {}), req.socket.remoteAddress, trustProxy);
}

export function clientAddress(headers: Headers, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for');
    const last = forwarded?.split(',').map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  return socketAddress ?? 'unknown';
}
