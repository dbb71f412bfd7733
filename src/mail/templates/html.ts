// Markup for emails: every interpolated value is HTML-escaped by the `html` tag (names can hold anything), and
// only http(s) links go into mail.
/** Markup that is already safe. Only the `html` tag and the layout make these. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = string | number | Html | readonly HtmlValue[] | null | undefined;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: interpolated strings are escaped, nested `html` fragments are kept. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/**
 * Only http(s) links go into mail, and webcal: (a calendar subscription, which calendar apps open): a
 * `javascript:` or `data:` URL would be a trap.
 */
export function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (!['https:', 'http:', 'webcal:'].includes(parsed.protocol)) throw new Error('mail links must be http(s) or webcal');
  return url;
}

