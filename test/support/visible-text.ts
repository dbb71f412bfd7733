// Text as a person reads it: the direction marks (LRM, RLM, ALM) and isolates (LRI, RLI, FSI, PDI) that Arabic
// feeds and emails carry show nothing. Tests that check the words, not the direction, compare this.
export function withoutDirectionMarks(text: string): string {
  return text.replace(/[\u200E\u200F\u061C\u2066-\u2069]/g, '');
}
