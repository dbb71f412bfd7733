// POSTMARK_API_HOST, read in one place: the configuration refuses a value this cannot read (at start, one line),
// and the Postmark transport connects where it says. Apart from postmark.ts so that reading the configuration
// does not load the Postmark client.

export interface PostmarkEndpoint {
  useHttps: boolean;
  /** Host, port and path, as the client's `requestHost` takes them. */
  requestHost: string;
}

/**
 * A base URL (`http://127.0.0.1:8025`, `https://api.postmarkapp.com`) or a bare host (`api.postmarkapp.com`, spoken
 * over HTTPS); null for anything else: another scheme, spaces, credentials, a query or a fragment.
 */
export function postmarkEndpoint(apiHost: string): PostmarkEndpoint | null {
  if (/\s/.test(apiHost)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(apiHost);
  if (hasScheme && !/^https?:\/\//i.test(apiHost)) return null;
  let url: URL;
  try {
    url = new URL(hasScheme ? apiHost : `https://${apiHost}`);
  } catch {
    return null;
  }
  if (url.hostname === '' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return null;
  return hasScheme
    ? { useHttps: url.protocol === 'https:', requestHost: `${url.host}${url.pathname.replace(/\/+$/, '')}` }
    : { useHttps: true, requestHost: apiHost.replace(/\/+$/, '') };
}
