// Text from bytes, strictly: a byte sequence that is not UTF-8 is refused (null), never replaced by U+FFFD, since
// every text this service takes in (request bodies, import files) ends up stored as it is.

/** UTF-8, refusing any malformed sequence; a leading byte-order mark is kept (a form field may begin with one). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of UTF-8 bytes, or null when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
