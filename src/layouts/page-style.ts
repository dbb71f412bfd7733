// The look of the human pages, one stylesheet for the Astro layout (Page.astro) and the pages the write API answers
// an HTML form with (src/forms/answer-page.ts). Inline: the pages' Content-Security-Policy allows inline styles.
export const PAGE_STYLE = [
  ':root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans Arabic", Tahoma, sans-serif; }',
  'body { margin: 0; padding: 2rem 1rem; line-height: 1.5; }',
  'main { max-width: 36rem; margin: 0 auto; }',
  'h1 { font-size: 1.5rem; margin: 0 0 1rem; }',
  'h2 { font-size: 1.1rem; margin: 1.25rem 0 0.5rem; }',
  // A text shown in both languages (Bilingual.astro): the second as prominent as the first.
  '.other-language { margin-top: 2rem; }',
  '.other-language h2 { font-size: 1.5rem; margin: 0 0 1rem; }',
  // A word longer than the line wraps on a phone rather than run off the screen (in either direction), at 360 px with
  // text at 200% (WCAG 1.4.4, 1.4.10): an address, a link showing one, a registration's reference the parent must keep,
  // a long name in a heading. An accessibility review found each of those cut at the screen's edge.
  'main { overflow-wrap: anywhere; }',
  '.card { border: 1px solid color-mix(in srgb, currentColor 20%, transparent); border-radius: 0.75rem; padding: 1.25rem; }',
  '.muted { opacity: 0.75; }',
  // What became of an answer, above what it was about (rsvp.astro).
  '.outcome { font-weight: 600; margin-top: 0; }',
  'button { font: inherit; padding: 0.6rem 1.1rem; border-radius: 0.5rem; border: 1px solid currentColor; background: transparent; color: inherit; cursor: pointer; }',
  'button[aria-pressed="true"] { background: #1f6feb; border-color: #1f6feb; color: white; }',
  // The chosen answer is marked by more than its colour (WCAG 1.4.1): a check mark (silent to screen readers, which
  // read aria-pressed), and under forced colours (Windows High Contrast), which drop backgrounds, a thick border in the
  // system's highlight. An accessibility review found the three answers identical there.
  'button[aria-pressed="true"]::before { content: "\\2713\\00a0" / ""; }',
  '@media (forced-colors: active) { button[aria-pressed="true"] { border: 3px solid Highlight; } }',
  // Answers closed: the buttons must not look clickable (dashed, the not-allowed cursor), and the other answers fade.
  // The answer the player gave stays at full contrast: it is what they come back to read (white on blue at 0.45
  // opacity read about 1.9:1 against the page, an accessibility review found).
  'button:disabled { cursor: not-allowed; border-style: dashed; }',
  'button:disabled:not([aria-pressed="true"]) { opacity: 0.45; }',
  '.choices { display: flex; gap: 0.5rem; flex-wrap: wrap; margin: 1rem 0; }',
  // Four counts in a row, or two rows of two in a card narrower than 16 of its text's em (a query on the card, whose em
  // grows with the text): "No answer yet" pushed the fourth out of the card at 360 px with text at 200% (the
  // accessibility review), and a grid of as many columns as fit laid them 3 + 1 (a diff review).
  '.card { container-type: inline-size; }',
  'dl.counts { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0.5rem 0; text-align: center; margin: 1rem 0 0; }',
  '@container (max-width: 16em) { dl.counts { grid-template-columns: repeat(2, 1fr); } }',
  'dl.counts dd { margin: 0; font-size: 1.5rem; font-weight: 600; }',
].join('\n');
