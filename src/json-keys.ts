// A JSON text's keys given twice in one object: JSON.parse keeps the last silently. Read by the API's body parser
// (src/http/body.ts) and the import (src/import/load.ts), which both refuse such a text.

/**
 * The first key a JSON object of `text` has twice, at any depth, or null. JSON.parse keeps the last value, a form's
 * reader the first, and whatever sits in front of this server (a proxy, a firewall) may keep either: a body whose
 * meaning depends on the reader is refused instead (RFC 7493 I-JSON forbids duplicate names). `text` must already
 * have parsed as JSON, which makes this scan simple: strings end at an unescaped quote, and brackets balance.
 */
export function duplicateJsonKey(text: string): string | null {
  return duplicateJsonKeyAt(text)?.key ?? null;
}

/** duplicateJsonKey, with the offset in `text` of the key's second occurrence (its opening quote). */
export function duplicateJsonKeyAt(text: string): { key: string; offset: number } | null {
  // The objects and arrays open at this point: an object's keys so far, and whether its next string is a key.
  const open: ({ keys: Set<string>; expectKey: boolean } | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = i + 1;
      let escaped = false;
      while (text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      const top = open[open.length - 1];
      if (top?.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (top.keys.has(key)) return { key, offset: i };
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b) open.push({ keys: new Set(), expectKey: true });
    else if (c === 0x5b) open.push(null);
    else if (c === 0x7d || c === 0x5d) open.pop();
    else if (c === 0x2c) {
      const top = open[open.length - 1];
      if (top) top.expectKey = true;
    }
  }
  return null;
}
