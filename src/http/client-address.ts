// The client's address for rate limits. X-Forwarded-For is believed only when TRUST_PROXY says a proxy
// sets it, and then only its last entry: the one our proxy appended. Earlier entries come from the client
// and can be forged.
export function clientAddress(headers: Headers, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for');
    const last = forwarded?.split(',').map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  return socketAddress ?? 'unknown';
}
