// The name a mistyped one most likely meant, among the names a reader takes (a setting of .env, a field of the import
// format): said beside the refusal, so that the operator or organizer need not look the spelling up.

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The candidate nearest to `name` (compared without regard to case, `_` and `-` alike), when it is at most 2 edits
 * away (3 for a name over 12 letters); null when none is that near, or `name` is a candidate.
 */
export function nearest(name: string, candidates: Iterable<string>): string | null {
  const fold = (s: string) => s.toLowerCase().replace(/-/g, '_');
  let best: { name: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(fold(name), fold(candidate));
    if (distance <= (candidate.length > 12 ? 3 : 2) && (best === null || distance < best.distance)) best = { name: candidate, distance };
  }
  return best === null || (best.distance === 0 && best.name === name) ? null : best.name;
}
