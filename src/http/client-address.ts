// The client's address for rate limits. X-Forwarded-For is believed only when TRUST_PROXY says proxies of ours
// append to it, and then only the entry the farthest of them appended: with one (nginx), the last; with a CDN in front
// of nginx (TRUST_PROXY=2), the one before it, since the last is the CDN edge's, which every visitor shared (a review:
// one allowance of writes a minute for a whole registration day). Earlier entries come from the client and can be
// forged.
import { isIPv4, isIPv6 } from 'node:net';

/** The same, from a node request's X-Forwarded-For (one header or several) and its socket. */
export function nodeClientAddress(
  req: Pick<import('node:http').IncomingMessage, 'headers' | 'socket'>,
  trustProxy: number,
): string {
  const forwarded = req.headers['x-forwarded-for'];
  const value = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
  return clientAddress(new Headers(value ? { 'x-forwarded-for': value } : {}), req.socket.remoteAddress, trustProxy);
}

export function clientAddress(headers: Headers, socketAddress: string | undefined, trustProxy: number): string {
  if (trustProxy > 0) {
    const entries = (headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    // Fewer entries than proxies: the request came in past the farthest (straight to nginx), which wrote the first.
    const appended = entries[Math.max(0, entries.length - trustProxy)];
    if (appended) return clientKey(appended);
  }
  return socketAddress === undefined ? 'unknown' : clientKey(socketAddress);
}

/**
 * One client as the limits count it. An IPv6 address counts as its /56: a home connection is usually delegated a
 * whole /56 (RIPE-690; RFC 6177 says /48 to /64), 256 /64s of 2^64 addresses it may use as it likes. Counting each
 * address apart gave one client as many write allowances as it cared to use, and counting each /64 (an earlier
 * release) still 256 (an attacker's review: 120 registrations a minute from one home connection). A /56 is what one
 * IPv4 address is to a household behind its router: its devices share one allowance. An IPv4 address written as IPv6 (`::ffff:a.b.c.d`,
 * a dual-stack socket's way) is that IPv4 address, and a port after an address is dropped. Anything else (a name, a
 * malformed entry) is kept as it is.
 */
export function clientKey(address: string): string {
  // Some proxies write the client's port too (`203.0.113.5:51234`, `[2001:db8::1]:51234`): a client has a new port
  // with every connection, and each one was a client of its own.
  const v4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d{1,5}$/.exec(address);
  if (v4WithPort && isIPv4(v4WithPort[1]!)) return v4WithPort[1]!;
  const v6WithPort = /^(\[[^\]]*\]):\d{1,5}$/.exec(address);
  if (v6WithPort) return clientKey(v6WithPort[1]!);
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const zoneless = bare.replace(/%.*$/, '');
  if (!isIPv6(zoneless)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(zoneless);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  const [a, b, c, d] = ipv6Groups(zoneless) as [number, number, number, number];
  return `${[a, b, c, d & 0xff00].map((g) => g.toString(16)).join(':')}::/56`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an embedded IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
