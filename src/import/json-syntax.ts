// Where a file that JSON.parse refused first goes wrong, as an organizer finds it in an editor: line and column,
// what was expected and what is there. V8's own messages say "at position 29850" (a character offset) or quote a
// few characters around the mistake, neither of which finds the missing comma of a 900-line file.

class SyntaxAt extends Error {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** The first syntax error of `text` (which JSON.parse refused): `line 7, column 5: expected , or } after a value, found: "language": "ar",`. */
export function describeJsonSyntaxError(text: string): string {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const fail = (expected: string): never => {
    throw new SyntaxAt(i, expected);
  };
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('a closing " of the string');
      if (c === '"') return void i++;
      if (c! < ' ') fail('a closing " on the same line (a string cannot hold a line break or a tab)');
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('four hexadecimal digits after \\u');
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after \\');
      } else i++;
    }
  };
  const key = () => {
    ws();
    if (text[i] !== '"') fail('a property name in double quotes');
    string();
    ws();
    if (text[i] !== ':') fail(': after the property name');
    i++;
  };
  // Iterative, with the open objects and arrays on a stack of its own: a file nested deeper than the call stack
  // (JSON.parse takes one) must get its line and column too, not a RangeError.
  const value = (): void => {
    const open: ('{' | '[')[] = [];
    for (;;) {
      ws();
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        ws();
        const close = c === '{' ? '}' : ']';
        if (text[i] !== close) {
          open.push(c);
          if (c === '{') key();
          continue;
        }
        i++;
      } else if (c === '"') string();
      else if (!scalar()) fail('a value (a string in double quotes, a number, true, false, null, an object or an array)');
      // A value ended: close what it ends, or go on to the next one.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return;
        ws();
        if (text[i] === ',') {
          i++;
          if (top === '{') key();
          break;
        }
        if (text[i] === (top === '{' ? '}' : ']')) {
          i++;
          open.pop();
          continue;
        }
        fail(top === '{' ? ', or } after a value' : ', or ] after a value');
      }
    }
  };
  const scalar = (): boolean => {
    for (const pattern of [NUMBER, LITERAL]) {
      pattern.lastIndex = i;
      const m = pattern.exec(text);
      if (m && m[0].length > 0) {
        i += m[0].length;
        return true;
      }
    }
    return false;
  };
  try {
    value();
    ws();
    if (i < text.length) fail('nothing after the end of the top-level value');
    return 'JSON.parse refused it, but no syntax error was found';
  } catch (error) {
    if (!(error instanceof SyntaxAt)) throw error;
    const { line, column } = lineAndColumn(text, error.offset);
    const rest = text.slice(error.offset);
    const shown = [...rest.split(/\r?\n/)[0]!].slice(0, 24).join('').trimEnd();
    const found = rest === '' ? ' the end of the file' : shown === '' ? ' the end of the line' : `: ${shown}`;
    // The README's example explains its fields in // comments; an organizer who copied it met "expected a property
    // name" (an organizer's review).
    const comment = /^\/[/*]/.test(rest) ? ': JSON has no comments (the README\'s // lines explain its example): remove them' : '';
    return `line ${line}, column ${column}: expected ${error.expected}, found${found}${comment}${commonSlip(text, error.offset, error.expected)}`;
  }
}

/**
 * The two slips a first-time organizer's review made that the expected/found words do not name: a comma after the
 * last item of a list or object (found "]}," on the next line, and no word of the comma), and the curly quotes a word
 * processor or a phone types for ". Said where the comma is, to remove it.
 */
function commonSlip(text: string, offset: number, expected: string): string {
  const next = text[offset];
  if (next !== undefined && '\u201C\u201D\u2018\u2019'.includes(next)) {
    return ': curly quotes (“ ” ‘ ’, from a word processor or a phone) are not JSON: write straight double quotes (")';
  }
  // Only a closer of the list or object the comma is in: after a comma a list expects a value, an object a property
  // name; any other closer is a mistake of its own, which removing the comma would not mend (a review).
  if ((next === ']' && expected.startsWith('a value')) || (next === '}' && expected.startsWith('a property name'))) {
    let j = offset - 1;
    while (j >= 0 && ' \t\r\n'.includes(text[j]!)) j--;
    if (text[j] === ',') {
      const at = lineAndColumn(text, j);
      return `: the comma at line ${at.line}, column ${at.column} comes after the last item, before ${next}: remove it`;
    }
  }
  return '';
}

/** Where `offset` of `text` is, as an editor counts: lines from 1, columns in characters from 1. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: [...before.slice(before.lastIndexOf('\n') + 1)].length + 1 };
}
