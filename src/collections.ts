// Small collection helpers the rules and jobs share (Node 20 has no Map.groupBy).

/** Appends `value` to the list under `key`, starting the list when there is none: grouping without a copy per item. */
export function pushInto<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const list = groups.get(key);
  if (list) list.push(value);
  else groups.set(key, [value]);
}

/**
 * The value under `key` when `record` has it as its own property, else undefined. Ids are keys of plain objects (the
 * manifest is JSON), and an id may be `constructor` or `toString`: `record[key]` would answer Object.prototype's.
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * `list` in runs of at most `size` (500: below SQLite's limit of bound parameters in one statement, for `IN (…)` lists).
 */
export function chunks<T>(list: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
