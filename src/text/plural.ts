// An English count with its noun: "1 match", "2 matches". One place for the commands' and summaries' counts.

/** `n` and its noun, singular for 1 and `many` (the noun with an s, unless given) otherwise. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
