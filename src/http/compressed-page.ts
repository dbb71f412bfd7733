// The API documentation page compressed: 188 KB of HTML, the same for every reader while the server runs, went whole
// to a developer's phone. Brotli or gzip as the reader accepts (chooseEncoding), with the artifacts' settings
// (compressVariants), compressed once and kept while the page's bytes are the same.
// Only a page with no secret and nothing of the request in it may be compressed: where a token sits beside text a
// request can make the page repeat, the compressed length tells the token a byte at a time (BREACH). /docs is such a
// page; the RSVP, follow confirm and unsubscribe pages (tokens) and the form answer pages (what was posted) are not.
import { chooseEncoding } from './accept.js';
import { compressVariants } from '../publish/store.js';

/** The pages compressed, by path: no token, nothing of the request (above). */
export const COMPRESSED_PAGES: ReadonlySet<string> = new Set(['/docs']);

let last: { identity: Buffer; gz: Buffer; br: Buffer } | null = null;

/** `response` (a page of COMPRESSED_PAGES) in the encoding the request accepts, with `Vary: Accept-Encoding`. */
export async function compressedPage(request: Request, response: Response): Promise<Response> {
  if (response.status !== 200 || response.headers.has('Content-Encoding') || response.body === null) return response;
  const identity = Buffer.from(await response.arrayBuffer());
  if (last === null || !last.identity.equals(identity)) {
    const variants = compressVariants(identity);
    last = variants && { identity, ...variants };
  }
  const encoding = last === null ? 'identity' : chooseEncoding(request.headers.get('Accept-Encoding') ?? undefined);
  const body = encoding === 'br' ? last!.br : encoding === 'gzip' ? last!.gz : identity;
  const headers = new Headers(response.headers);
  const vary = headers.get('Vary');
  if (!vary?.split(',').some((v) => v.trim().toLowerCase() === 'accept-encoding')) headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  if (encoding !== 'identity') headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(body.length));
  return new Response(new Uint8Array(body), { status: response.status, statusText: response.statusText, headers });
}
