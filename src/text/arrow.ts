// "before → after" in a line a terminal shows left to right (the import's summary). Between two right-to-left runs
// (an Arabic venue replaced by another) the arrow, a neutral, joins them into one right-to-left run, and a bidi-aware
// terminal, log viewer or email showed "after ← before": a native Arabic review read a venue change backwards.
// Left-to-right marks (U+200E) around the arrow keep the two apart, in the order written; only where a side holds
// right-to-left letters, so that every other line stays plain text.

const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

export function changeArrow(before: string, after: string): string {
  return RIGHT_TO_LEFT.test(before) || RIGHT_TO_LEFT.test(after) ? `${before} \u200E→\u200E ${after}` : `${before} → ${after}`;
}
