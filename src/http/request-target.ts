// The request target of an HTTP/1.1 request line (RFC 9112 3.2). Clients send the origin form (`/path?query`); a
// server must also accept the absolute form (`http://host/path?query`, 3.2.2), which proxies send and any client
// may. Everything downstream (the artifact, RSVP and static-file handlers, Astro) routes on `req.url` as an origin
// form: an absolute target answered "No route for GET http://…".

export type TargetReading =
  | { form: 'origin' }
  | { form: 'asterisk' }
  | { form: 'absolute'; path: string; authority: string }
  | { form: 'invalid'; detail: string };

/**
 * How to read a request target: as it is (origin form), the asterisk form of OPTIONS, or as the path and query
 * of an absolute `http`/`https` target and its authority. The path is the target's own characters, not a URL
 * parser's normalization (`new URL` would resolve `..` and decode some escapes), so every handler, the static-file
 * server's traversal checks included, sees exactly the path the same request in origin form would give.
 */
export function readRequestTarget(target: string, method: string): TargetReading {
  if (target.startsWith('/')) return { form: 'origin' };
  // The asterisk form asks about the server as a whole, and only OPTIONS can (RFC 9112 3.2.4): `GET *` was routed as
  // the home page.
  if (target === '*') return method === 'OPTIONS' ? { form: 'asterisk' } : { form: 'invalid', detail: 'The request target * is for OPTIONS only.' };
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s.exec(target);
  if (!m) return { form: 'invalid', detail: 'The request target is neither a path nor an absolute http URL.' };
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  if (!/^https?$/i.test(scheme)) return { form: 'invalid', detail: `This server serves http and https targets, not ${scheme}.` };
  // RFC 9110 4.2.1 and 4.2.4: an http URI has a host, and user information in it is an error.
  if (authority === '' || authority.includes('@')) return { form: 'invalid', detail: 'The request target has no host, or user information in it.' };
  if (rest === '') return { form: 'absolute', path: '/', authority };
  if (rest.startsWith('/')) return { form: 'absolute', path: rest, authority };
  if (rest.startsWith('?')) return { form: 'absolute', path: `/${rest}`, authority };
  return { form: 'invalid', detail: 'The request target has a fragment.' };
}
