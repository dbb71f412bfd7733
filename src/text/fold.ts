// A name as a person reads it, to tell two spellings of one apart: Unicode compatibility forms, case and spacing
// aside ("Bella  Hart", "bella hart" and "Ｂｅｌｌａ Hart" are one). The one place the rule is written.
export function foldName(name: string): string {
  return name.normalize('NFKC').toLocaleLowerCase('und').replace(/\s+/gu, ' ').trim();
}
