// Small collection helpers the rules and jobs share (Node 20 has no Map.groupBy).

/** Appends `value` to the list under `key`, starting the list when there is none: grouping without a copy per item. */
export function pushInto<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const list = groups.get(key);
  if (list) list.push(value);
  else groups.set(key, [value]);
}
