import ICAL from 'ical.js';
import type { MatchStatus } from '../vocabulary/enums.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CALENDAR_PRODID,
  icalStatus,
  matchUid,
  renderCalendar,
  utcDateTime,
  type CalendarInput,
} from './calendar.js';
import { escapeText, foldLine, sanitizeText, serializeLines, unfold } from './ical-text.js';
import { calendarInput, calendarMatch } from '../../test/support/builders/calendar.js';

// ical.js does not know X-WR-CALNAME (a de facto property) and would hand back its raw, still escaped value.
// Teach it that the value is TEXT so that the round trip goes through a real unescaping parser.
ICAL.design.defaultSet.property['x-wr-calname'] = { defaultType: 'text' };

const ARABIC_NAME = 'دوري الأحد للأحياء — شتاء 2026';
const ARABIC_SUMMARY = 'نادي النخيل ضد نادي الشروق';

const match = calendarMatch;
const input = calendarInput;

describe('utcDateTime', () => {
  it.each([
    ['1970-01-01T00:00:00Z', '19700101T000000Z'],
    ['2026-03-07T18:30:00Z', '20260307T183000Z'],
    ['2028-02-29T23:59:59Z', '20280229T235959Z'],
    ['9999-12-31T23:59:59Z', '99991231T235959Z'],
    ['0999-05-06T07:08:09Z', '09990506T070809Z'],
    ['0001-01-01T00:00:00Z', '00010101T000000Z'],
  ])('%s -> %s', (instant, expected) => {
    expect(utcDateTime(Date.parse(instant))).toBe(expected);
  });

  it('writes what ics writes (toISOString without separators) for any whole second of years 0 to 9999', () => {
    for (let i = 0; i < 2000; i++) {
      const ms = Math.floor((Math.random() * 253_402_300_800_000) / 1000) * 1000;
      expect(utcDateTime(ms)).toBe(new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z'));
    }
  });
});

/** Physical lines, without the final empty string after the last CRLF. */
function physicalLines(ics: string): string[] {
  const lines = ics.split('\r\n');
  expect(lines.pop()).toBe('');
  return lines;
}

/** Unfolded content lines. */
function contentLines(ics: string): string[] {
  return physicalLines(unfold(ics));
}

function parse(ics: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(ics));
}

function events(ics: string): ICAL.Component[] {
  return parse(ics).getAllSubcomponents('vevent');
}

function onlyEvent(ics: string): ICAL.Component {
  const all = events(ics);
  expect(all).toHaveLength(1);
  return all[0]!;
}

function text(component: ICAL.Component, name: string): unknown {
  return component.getFirstPropertyValue(name);
}

/** Lines of one VEVENT (unfolded), BEGIN and END excluded. */
function eventLines(ics: string, index = 0): string[] {
  const lines = contentLines(ics);
  const blocks: string[][] = [];
  let current: string[] | null = null;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = [];
    else if (line === 'END:VEVENT') {
      if (current) blocks.push(current);
      current = null;
    } else if (current) current.push(line);
  }
  const block = blocks[index];
  if (!block) throw new Error(`no VEVENT #${index}`);
  return block;
}

/** Asserts the RFC 5545 wire format rules every output must follow. */
function expectWellFormed(ics: string): void {
  expect(ics.endsWith('\r\n')).toBe(true);
  expect(ics).not.toMatch(/(?<!\r)\n/); // no bare LF
  expect(ics).not.toMatch(/\r(?!\n)/); // no bare CR
  // No control character other than the CR LF pairs of line ends (folding uses a space, never a tab).
  expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u001F\u007F]/);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const line of physicalLines(ics)) {
    expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    expect(line.length).toBeGreaterThan(0);
    // Each physical line is valid UTF-8 on its own: no multi-octet character (or surrogate pair) was split.
    expect(() => decoder.decode(Buffer.from(line, 'utf8'))).not.toThrow();
    expect(line).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(line.startsWith('\t')).toBe(false);
  }
  // Folding is undone by removing CRLF + one space: every unfolded line must start with a property name.
  for (const line of contentLines(ics)) expect(line).toMatch(/^[A-Z][A-Z0-9-]*[;:]/);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('calendar skeleton', () => {
  it('has the calendar properties, in order, on their own lines', () => {
    const lines = contentLines(renderCalendar(input({ refreshMinutes: 30 })));
    expect(lines.slice(0, 9)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      `PRODID:${CALENDAR_PRODID}`,
      'X-WR-CALNAME:Riverside Sunday League — Winter 2026',
      'NAME:Riverside Sunday League — Winter 2026',
      'REFRESH-INTERVAL;VALUE=DURATION:PT30M',
      'X-PUBLISHED-TTL:PT30M',
      'BEGIN:VEVENT',
    ]);
    // No METHOD: an iTIP METHOD:PUBLISH would require an ORGANIZER in every VEVENT (RFC 5546 3.2.1).
    expect(lines.some((l) => l.startsWith('METHOD'))).toBe(false);
    expect(lines.some((l) => l.startsWith('ORGANIZER'))).toBe(false);
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines.filter((l) => l === 'BEGIN:VCALENDAR')).toHaveLength(1);
    expect(lines.filter((l) => l === 'END:VCALENDAR')).toHaveLength(1);
    expect(CALENDAR_PRODID).toBe('-//Competitions//Public Calendar v0//EN');
  });

  it('is read by ical.js with the same calendar properties', () => {
    const cal = parse(renderCalendar(input({ refreshMinutes: 15 })));
    expect(cal.name).toBe('vcalendar');
    expect(text(cal, 'version')).toBe('2.0');
    expect(text(cal, 'prodid')).toBe(CALENDAR_PRODID);
    expect(text(cal, 'calscale')).toBe('GREGORIAN');
    expect(cal.getFirstProperty('method')).toBeNull();
    expect(text(cal, 'x-wr-calname')).toBe('Riverside Sunday League — Winter 2026');
    const refresh = cal.getFirstProperty('refresh-interval');
    expect(refresh?.type).toBe('duration');
    expect(String(refresh?.getFirstValue())).toBe('PT15M');
    expect(String(text(cal, 'x-published-ttl'))).toBe('PT15M');
  });

  it.each([
    { refreshMinutes: 60, expected: 'PT60M' },
    { refreshMinutes: 1, expected: 'PT1M' },
    { refreshMinutes: 2.6, expected: 'PT3M' },
    { refreshMinutes: 0, expected: 'PT60M' },
    { refreshMinutes: -5, expected: 'PT60M' },
    { refreshMinutes: Number.NaN, expected: 'PT60M' },
    { refreshMinutes: Number.POSITIVE_INFINITY, expected: 'PT60M' },
    // At most a year: a calendar app told to wait longer may never come back.
    { refreshMinutes: 1e9, expected: 'PT525600M' },
  ])('refreshMinutes $refreshMinutes gives $expected', ({ refreshMinutes, expected }) => {
    const lines = contentLines(renderCalendar(input({ refreshMinutes })));
    expect(lines).toContain(`REFRESH-INTERVAL;VALUE=DURATION:${expected}`);
    expect(lines).toContain(`X-PUBLISHED-TTL:${expected}`);
  });

  it('an empty match list gives a valid calendar with no VEVENT', () => {
    const out = renderCalendar(input({ matches: [] }));
    expectWellFormed(out);
    const lines = contentLines(out);
    expect(lines.some((l) => l.startsWith('BEGIN:VEVENT'))).toBe(false);
    expect(lines).toContain('X-WR-CALNAME:Riverside Sunday League — Winter 2026');
    expect(lines).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT60M');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(events(out)).toHaveLength(0);
    expect(text(parse(out), 'prodid')).toBe(CALENDAR_PRODID);
    // RFC 5545 3.6: at least one component. UTC's time zone, parsed as one.
    const zones = parse(out).getAllSubcomponents('vtimezone');
    expect(zones.map((z) => z.getFirstPropertyValue('tzid'))).toEqual(['UTC']);
    expect(zones[0]!.getFirstSubcomponent('standard')?.getFirstPropertyValue('tzoffsetto')?.toString()).toBe('+00:00');
  });

  it('a calendar with matches carries no time zone: every time in it is UTC', () => {
    expect(contentLines(renderCalendar(input())).some((l) => l.startsWith('BEGIN:VTIMEZONE'))).toBe(false);
  });

  it('escapes X-WR-CALNAME', () => {
    const out = renderCalendar(input({ calendarName: 'Cup, North; South\\East\nFinals' }));
    expect(contentLines(out)).toContain('X-WR-CALNAME:Cup\\, North\\; South\\\\East\\nFinals');
    expect(contentLines(out)).toContain('NAME:Cup\\, North\\; South\\\\East\\nFinals');
    expect(text(parse(out), 'x-wr-calname')).toBe('Cup, North; South\\East\nFinals');
  });

  it('an empty calendar name falls back to the event id', () => {
    const out = renderCalendar(input({ calendarName: '\u0000' }));
    expect(contentLines(out)).toContain('X-WR-CALNAME:ev-winter-2026');
  });
});

describe('VEVENT properties', () => {
  const out = renderCalendar(input());
  const lines = eventLines(out);

  it.each([
    ['UID:m-001.ev-winter-2026@competitions.example'],
    ['SUMMARY;LANGUAGE=en:Riverside FC vs Harbour United'],
    ['DESCRIPTION;LANGUAGE=en:Round 1 — Riverside Sunday League'],
    ['LOCATION;LANGUAGE=en:Riverside Park\\, Pitch 2'],
    ['DTSTAMP:20260301T100000Z'],
    ['DTSTART:20260307T183000Z'],
    ['DTEND:20260307T201500Z'],
    ['SEQUENCE:0'],
    ['STATUS:CONFIRMED'],
  ])('has %s', (line) => {
    expect(lines).toContain(line);
  });

  it('has each property once, and nothing random or clock-based', () => {
    const names = lines.map((l) => /^[A-Z-]+/.exec(l)?.[0]);
    expect(names.sort()).toEqual(
      ['DESCRIPTION', 'DTEND', 'DTSTAMP', 'DTSTART', 'LOCATION', 'SEQUENCE', 'STATUS', 'SUMMARY', 'UID'].sort(),
    );
  });

  it('is read by ical.js with UTC times', () => {
    const ev = onlyEvent(out);
    expect(text(ev, 'uid')).toBe(matchUid('ev-winter-2026', 'm-001', 'competitions.example'));
    for (const [name, iso] of [
      ['dtstamp', '2026-03-01T10:00:00Z'],
      ['dtstart', '2026-03-07T18:30:00Z'],
      ['dtend', '2026-03-07T20:15:00Z'],
    ] as const) {
      const time = ev.getFirstPropertyValue(name) as ICAL.Time;
      expect(time.zone?.tzid, name).toBe('UTC');
      expect(time.toString(), name).toBe(iso);
    }
    expect(ev.getFirstProperty('summary')?.getParameter('language')).toBe('en');
    const event = new ICAL.Event(ev);
    expect(event.summary).toBe('Riverside FC vs Harbour United');
    expect(event.location).toBe('Riverside Park, Pitch 2');
    expect(event.duration.toSeconds()).toBe(105 * 60);
  });

  it.each<[MatchStatus, string]>([
    ['scheduled', 'CONFIRMED'],
    ['in_progress', 'CONFIRMED'],
    ['completed', 'CONFIRMED'],
    ['postponed', 'TENTATIVE'],
    ['cancelled', 'CANCELLED'],
  ])('status %s gives STATUS:%s', (status, expected) => {
    const rendered = renderCalendar(input({ matches: [match({ status })] }));
    expect(eventLines(rendered)).toContain(`STATUS:${expected}`);
    expect(text(onlyEvent(rendered), 'status')).toBe(expected);
    expect(icalStatus(status)).toBe(expected);
  });

  it.each([0, 1, 3, 42, 2_147_483_647])('SEQUENCE %i is carried through', (sequence) => {
    const rendered = renderCalendar(input({ matches: [match({ sequence })] }));
    expect(eventLines(rendered)).toContain(`SEQUENCE:${sequence}`);
    expect(text(onlyEvent(rendered), 'sequence')).toBe(sequence);
  });

  it.each([
    { sequence: -1, expected: 0 },
    { sequence: 2.7, expected: 2 },
    { sequence: Number.NaN, expected: 0 },
    { sequence: 1e12, expected: 2_147_483_647 },
  ])('an unusable SEQUENCE $sequence becomes $expected', ({ sequence, expected }) => {
    expect(eventLines(renderCalendar(input({ matches: [match({ sequence })] })))).toContain(`SEQUENCE:${expected}`);
  });

  it.each([{ location: null }, { location: '' }])('LOCATION is left out when it is $location', ({ location }) => {
    const rendered = renderCalendar(input({ matches: [match({ location })] }));
    expect(eventLines(rendered).some((l) => l.startsWith('LOCATION'))).toBe(false);
    expect(onlyEvent(rendered).hasProperty('location')).toBe(false);
  });

  it('no language: no LANGUAGE parameter; Arabic: LANGUAGE=ar', () => {
    const { language: _omit, ...rest } = input();
    const plain = eventLines(renderCalendar(rest));
    expect(plain).toContain('SUMMARY:Riverside FC vs Harbour United');
    expect(plain.some((l) => l.includes('LANGUAGE='))).toBe(false);
    const arabic = eventLines(renderCalendar(input({ language: 'ar', matches: [match({ summary: ARABIC_SUMMARY })] })));
    expect(arabic).toContain(`SUMMARY;LANGUAGE=ar:${ARABIC_SUMMARY}`);
  });

  it.each([
    { url: 'https://competitions.example/matches/m-001', expected: 'URL:https://competitions.example/matches/m-001' },
    { url: 'https://competitions.example/م/1', expected: 'URL:https://competitions.example/%D9%85/1' },
    { url: 'http://localhost:4321/x?a=1,2;b', expected: 'URL:http://localhost:4321/x?a=1,2;b' },
    { url: 'javascript:alert(1)', expected: null },
    { url: 'not a url', expected: null },
    { url: '', expected: null },
    { url: null, expected: null },
    // As long as a URL may be (2048 characters), and one character over.
    { url: `https://competitions.example/${'a'.repeat(2048 - 29)}`, expected: `URL:https://competitions.example/${'a'.repeat(2048 - 29)}` },
    { url: `https://competitions.example/${'a'.repeat(2049 - 29)}`, expected: null },
  ])('url $url', ({ url, expected }) => {
    const lines = eventLines(renderCalendar(input({ matches: [match({ url })] })));
    const urlLines = lines.filter((l) => l.startsWith('URL'));
    expect(urlLines).toEqual(expected === null ? [] : [expected]);
  });

  // Whole seconds are compared: an end within its start's second is no end (DTEND equal to DTSTART is an empty event).
  it('leaves out an end in the same second as the start', () => {
    const lines = eventLines(renderCalendar(input({ matches: [match({ start: '2026-03-07T18:30:00.200Z', end: '2026-03-07T18:30:00.700Z' })] })));
    expect(lines.filter((l) => l.startsWith('DTEND'))).toEqual([]);
  });

  // A DATE-TIME has a 4-digit year: the last instant of 9999 is the last one a calendar can hold.
  it.each([
    ['9999-12-31T23:59:59.999Z', ['DTSTART:99991231T235959Z']],
    ['+010000-01-01T00:00:00Z', []],
  ])('a start at %s', (start, expected) => {
    const lines = contentLines(renderCalendar(input({ matches: [match({ start })] })));
    expect(lines.filter((l) => /^DTSTART:\d{8}T\d{6}Z$/.test(l))).toEqual(expected);
  });

  it('keeps seconds, drops milliseconds, converts offsets to UTC', () => {
    const lines = eventLines(
      renderCalendar(
        input({
          matches: [
            match({ start: '2026-03-07T21:30:15.999+03:00', end: '2026-03-07T20:00:00.000Z', updatedAt: '2026-03-01T10:00:00.5Z' }),
          ],
        }),
      ),
    );
    expect(lines).toContain('DTSTART:20260307T183015Z');
    expect(lines).toContain('DTEND:20260307T200000Z');
    expect(lines).toContain('DTSTAMP:20260301T100000Z');
  });
});

describe('UID', () => {
  it('comes from ids only: unchanged when everything else about the match changes', () => {
    const before = renderCalendar(input());
    const after = renderCalendar(
      input({
        calendarName: 'Renamed',
        matches: [
          match({
            summary: 'other',
            description: 'other',
            location: null,
            start: '2026-04-01T10:00:00Z',
            end: '2026-04-01T12:00:00Z',
            status: 'cancelled',
            sequence: 7,
            updatedAt: '2026-03-20T09:00:00Z',
          }),
        ],
      }),
    );
    expect(text(onlyEvent(after), 'uid')).toBe(text(onlyEvent(before), 'uid'));
  });

  it('differs between matches and between events; the domain is case-insensitive', () => {
    const uids = new Set([
      matchUid('ev1', 'm1', 'competitions.example'),
      matchUid('ev1', 'm2', 'competitions.example'),
      matchUid('ev2', 'm1', 'competitions.example'),
      matchUid('ev1', 'm1', 'other.example'),
    ]);
    expect(uids.size).toBe(4);
    expect(matchUid('ev1', 'm1', 'Competitions.EXAMPLE')).toBe('m1.ev1@competitions.example');
  });

  // A team's calendar gathers matches of several competitions: each keeps its own competition's UID.
  it("a match's own event id, where it has one, makes its UID", () => {
    const out = renderCalendar(input({ matches: [match({ id: 'm1', eventId: 'other-cup' })] }));
    expect(text(onlyEvent(out), 'uid')).toMatch(/^m1\.other-cup@/);
  });

  it('a repeated match id gives one VEVENT (one UID per calendar)', () => {
    const out = renderCalendar(
      input({ matches: [match({ id: 'dup', summary: 'first' }), match({ id: 'dup', summary: 'second' })] }),
    );
    expect(text(onlyEvent(out), 'summary')).toBe('first');
  });
});

describe('determinism', () => {
  const many = input({
    calendarName: ARABIC_NAME,
    language: 'ar',
    matches: [
      match({ id: 'c', start: '2026-03-08T10:00:00Z', end: '2026-03-08T12:00:00Z' }),
      match({ id: 'b', start: '2026-03-07T18:30:00Z' }),
      match({ id: 'a', start: '2026-03-07T18:30:00Z', summary: ARABIC_SUMMARY }),
      match({ id: 'z', start: '2026-03-01T08:00:00Z', end: '2026-03-01T10:00:00Z', status: 'cancelled', sequence: 4 }),
    ],
  });

  it('the same input renders byte-identical output', () => {
    const first = renderCalendar(many);
    expect(Buffer.from(renderCalendar(many)).equals(Buffer.from(first))).toBe(true);
    expect(renderCalendar(structuredClone(many))).toBe(first);
  });

  it('orders events by start, then id, whatever the input order', () => {
    const out = renderCalendar(many);
    expect(events(out).map((e) => text(e, 'uid'))).toEqual(
      ['z', 'a', 'b', 'c'].map((id) => matchUid('ev-winter-2026', id, 'competitions.example')),
    );
    expect(renderCalendar({ ...many, matches: [...many.matches].reverse() })).toBe(out);
  });

  it('does not depend on the clock, randomness or the process time zone', () => {
    const reference = renderCalendar(many);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2031-01-01T00:00:00Z'));
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.123);
    const savedTz = process.env.TZ;
    try {
      for (const tz of ['Asia/Riyadh', 'America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
        process.env.TZ = tz;
        expect(renderCalendar(many), tz).toBe(reference);
      }
    } finally {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
      random.mockRestore();
    }
  });
});

describe('text round trip through ical.js', () => {
  const emoji = 'Kickoff ⚽ 🏆 👨‍👩‍👧‍👦 🇸🇦 done';
  const cases: Array<{ name: string; value: string }> = [
    { name: 'Arabic', value: `${ARABIC_SUMMARY} — الجولة ١` },
    { name: 'comma, semicolon, backslash', value: 'a, b; c\\d \\, \\; \\n \\\\' },
    { name: 'newlines', value: 'line one\nline two\n\nline four\n' },
    { name: 'emoji', value: emoji },
    { name: 'colons and quotes', value: 'Final: "A" vs \'B\' <x@y> http://a.b/c?d=e&f' },
    { name: 'mixed RTL and LTR', value: 'Riverside FC ضد نادي الشروق, Pitch 2; 18:30' },
    { name: 'leading and trailing spaces', value: '  spaced  ' },
    { name: 'long mixed text', value: `${ARABIC_SUMMARY}, ${emoji}; \\ `.repeat(20) },
  ];

  it.each(cases)('SUMMARY, DESCRIPTION, LOCATION, X-WR-CALNAME: $name', ({ value }) => {
    const out = renderCalendar(
      input({ calendarName: value, language: 'ar', matches: [match({ summary: value, description: value, location: value })] }),
    );
    expectWellFormed(out);
    const cal = parse(out);
    expect(text(cal, 'x-wr-calname')).toBe(value);
    const ev = onlyEvent(out);
    expect(text(ev, 'summary')).toBe(value);
    expect(text(ev, 'description')).toBe(value);
    expect(text(ev, 'location')).toBe(value);
  });

  it.each([
    { name: 'NUL and other C0 controls', value: 'a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Bg\u001Fh', expected: 'abcdefgh' },
    { name: 'DEL', value: 'a\u007Fb', expected: 'ab' },
    { name: 'CRLF', value: 'a\r\nb', expected: 'a\nb' },
    { name: 'lone CR', value: 'a\rb', expected: 'a\nb' },
    { name: 'tab', value: 'a\tb', expected: 'a b' },
    { name: 'lone high surrogate', value: 'a\uD83Db', expected: 'a\uFFFDb' },
    { name: 'lone low surrogate', value: '\uDE00x', expected: '\uFFFDx' },
    { name: 'reversed pair', value: '\uDE00\uD83D', expected: '\uFFFD\uFFFD' },
    { name: 'valid pair kept', value: '\uD83D\uDE00', expected: '😀' },
    { name: 'C1 control kept (allowed by RFC 5545)', value: 'a\u0085b', expected: 'a\u0085b' },
  ])('cleans $name', ({ value, expected }) => {
    const out = renderCalendar(
      input({ calendarName: value, matches: [match({ summary: value, description: value, location: value })] }),
    );
    expectWellFormed(out);
    const ev = onlyEvent(out);
    expect(text(parse(out), 'x-wr-calname')).toBe(expected);
    expect(text(ev, 'summary')).toBe(expected);
    expect(text(ev, 'description')).toBe(expected);
    expect(text(ev, 'location')).toBe(expected);
  });
});

describe('folding', () => {
  it('a 300-character Arabic summary is folded at 75 octets and comes back whole', () => {
    const summary = 'ملعب'.repeat(75); // 300 characters, 600 octets
    expect(summary).toHaveLength(300);
    const out = renderCalendar(input({ language: 'ar', matches: [match({ summary })] }));
    expectWellFormed(out);
    const lines = physicalLines(out);
    const start = lines.findIndex((l) => l.startsWith('SUMMARY'));
    const folded = [lines[start]!];
    for (let i = start + 1; lines[i]!.startsWith(' '); i++) folded.push(lines[i]!);
    // "SUMMARY;LANGUAGE=ar:" (20 octets) + 600 octets: 9 physical lines, all full but the last.
    expect(folded.length).toBe(Math.ceil((20 + 600 - 75) / 74) + 1);
    for (const line of folded.slice(0, -1)) expect(Buffer.byteLength(line)).toBeGreaterThanOrEqual(74);
    for (const line of folded.slice(1)) expect(line[0]).toBe(' ');
    expect(text(onlyEvent(out), 'summary')).toBe(summary);
  });

  it('an Arabic calendar with emoji in every field respects 75 octets on every line', () => {
    const out = renderCalendar(
      input({
        calendarName: `${ARABIC_NAME} 🏆`.repeat(6),
        language: 'ar',
        matches: Array.from({ length: 12 }, (_, i) =>
          match({
            id: `m${i}`,
            summary: `${ARABIC_SUMMARY} ⚽`.repeat(i + 1),
            description: `الجولة ${i}\n${'وصف طويل 😀, '.repeat(i * 3)}`,
            location: i % 2 === 0 ? null : `ملعب رقم ${i}; الساحة`,
            start: `2026-03-${String(10 + i).padStart(2, '0')}T18:30:00Z`,
            end: `2026-03-${String(10 + i).padStart(2, '0')}T20:30:00Z`,
          }),
        ),
      }),
    );
    expectWellFormed(out);
    expect(events(out)).toHaveLength(12);
  });

  it.each([
    { name: 'ASCII of exactly 75 octets is not folded', line: 'X'.repeat(75), expected: ['X'.repeat(75)] },
    { name: 'ASCII of 76 octets', line: 'X'.repeat(76), expected: ['X'.repeat(75), ' X'] },
    {
      name: 'ASCII of 75 + 74 + 1 octets',
      line: 'X'.repeat(150),
      expected: ['X'.repeat(75), ` ${'X'.repeat(74)}`, ' X'],
    },
    { name: 'a 2-octet character that would straddle octet 75', line: `${'X'.repeat(74)}م`, expected: ['X'.repeat(74), ' م'] },
    { name: 'a 3-octet character at the edge', line: `${'X'.repeat(73)}€`, expected: ['X'.repeat(73), ' €'] },
    { name: 'a 3-octet character that just fits', line: `${'X'.repeat(72)}€`, expected: [`${'X'.repeat(72)}€`] },
    { name: 'a 4-octet emoji (surrogate pair) at the edge', line: `${'X'.repeat(73)}😀`, expected: ['X'.repeat(73), ' 😀'] },
    { name: 'a 4-octet emoji that just fits', line: `${'X'.repeat(71)}😀`, expected: [`${'X'.repeat(71)}😀`] },
    { name: 'empty line', line: '', expected: [''] },
    // A line-by-line unescaper read "\" then "n" (a review counted 43 such breaks in the demo's feeds).
    { name: 'an escape at the edge moves whole', line: `${'X'.repeat(74)}\\n`, expected: ['X'.repeat(74), ' \\n'] },
    { name: 'an escaped backslash at the edge moves whole', line: `${'X'.repeat(74)}\\\\`, expected: ['X'.repeat(74), ' \\\\'] },
    { name: 'an escape ending at the edge stays', line: `${'X'.repeat(73)}\\;Y`, expected: [`${'X'.repeat(73)}\\;`, ' Y'] },
  ])('foldLine: $name', ({ line, expected }) => {
    expect(foldLine(line).split('\r\n')).toEqual(expected);
    expect(unfold(foldLine(line))).toBe(line);
  });

  it('foldLine never exceeds 75 octets nor splits a character, and unfold restores the line (seeded fuzz)', () => {
    const alphabet = ['a', ' ', ',', '\\', 'é', 'م', 'ـ', '€', '中', '😀', '👨‍👩‍👧', '🇸🇦', '\u0651'];
    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (let round = 0; round < 300; round++) {
      let line = 'DESCRIPTION:';
      const length = next() % 400;
      for (let i = 0; i < length; i++) line += alphabet[next() % alphabet.length];
      const folded = foldLine(line);
      for (const physical of folded.split('\r\n')) {
        expect(Buffer.byteLength(physical)).toBeLessThanOrEqual(75);
        // Escaped as the feeds are (every backslash begins or is a pair), no physical line ends inside a pair.
        if (line.startsWith('DESCRIPTION:') && !folded.endsWith(physical)) expect((/\\*$/.exec(physical)?.[0].length ?? 0) % 2).toBe(0);
        expect(decoder.decode(Buffer.from(physical))).toBe(physical);
      }
      expect(unfold(folded)).toBe(line);
    }
  });

  it('serializeLines ends every line, the last included, with CRLF', () => {
    expect(serializeLines(['A:1', 'B:2'])).toBe('A:1\r\nB:2\r\n');
  });
});

describe('text helpers', () => {
  it.each([
    ['a\\b', 'a\\\\b'],
    ['a;b', 'a\\;b'],
    ['a,b', 'a\\,b'],
    ['a\nb', 'a\\nb'],
    ['a:b"c', 'a:b"c'],
    ['\\,', '\\\\\\,'],
  ])('escapeText(%j) is %j', (value, expected) => {
    expect(escapeText(value)).toBe(expected);
  });

  it.each([
    [undefined, ''],
    [null, ''],
    [42, ''],
    ['ok', 'ok'],
  ])('sanitizeText(%j) is %j', (value, expected) => {
    expect(sanitizeText(value)).toBe(expected);
  });
});

describe('odd input does not crash', () => {
  it('empty strings everywhere', () => {
    const out = renderCalendar({
      calendarName: '',
      eventId: '',
      uidDomain: '',
      refreshMinutes: 60,
      matches: [match({ id: '', summary: '', description: '', location: '', updatedAt: '' })],
    });
    expectWellFormed(out);
    const lines = eventLines(out);
    expect(lines).toContain('SUMMARY:'); // ics drops an empty SUMMARY; it is put back
    expect(lines.some((l) => l.startsWith('DESCRIPTION'))).toBe(false);
    expect(lines).toContain('DTSTAMP:20260307T183000Z'); // unreadable updatedAt: the start
    expect(contentLines(out)).toContain('X-WR-CALNAME:');
    const ev = onlyEvent(out);
    expect(text(ev, 'summary')).toBe('');
  });

  it('very long text', () => {
    const long = 'أ,;\\\n😀x'.repeat(20_000);
    const out = renderCalendar(input({ calendarName: long, matches: [match({ summary: long, description: long, location: long })] }));
    expectWellFormed(out);
    const ev = onlyEvent(out);
    expect(text(ev, 'description')).toBe(long);
    expect(text(parse(out), 'x-wr-calname')).toBe(long);
  });

  it('a match without a readable start gets no VEVENT; a bad or early end drops DTEND', () => {
    const out = renderCalendar(
      input({
        matches: [
          match({ id: 'no-start', start: 'not a date' }),
          match({ id: 'empty-start', start: '' }),
          match({ id: 'pre-1970', start: '1969-12-31T23:00:00Z' }),
          match({ id: 'year-10000', start: '+010000-01-01T00:00:00Z' }),
          match({ id: 'bad-end', end: 'soon' }),
          match({ id: 'end-before-start', start: '2026-03-08T18:30:00Z', end: '2026-03-08T18:00:00Z' }),
          match({ id: 'end-equals-start', start: '2026-03-09T18:30:00Z', end: '2026-03-09T18:30:00Z' }),
        ],
      }),
    );
    expectWellFormed(out);
    const evs = events(out);
    expect(evs.map((e) => String(text(e, 'uid')).split('.')[0])).toEqual(['bad-end', 'end-before-start', 'end-equals-start']);
    for (const ev of evs) {
      expect(ev.hasProperty('dtstart')).toBe(true);
      expect(ev.hasProperty('dtend')).toBe(false);
    }
  });

  it('values of the wrong type at run time (data from outside the type system)', () => {
    const bad = {
      calendarName: null,
      eventId: 7,
      uidDomain: undefined,
      refreshMinutes: '30',
      language: 'fr',
      matches: [
        null,
        { ...match(), summary: null, description: 5, location: {}, status: 'exploded', sequence: '3', url: 12 },
      ],
    } as unknown as CalendarInput;
    const out = renderCalendar(bad);
    expectWellFormed(out);
    const lines = eventLines(out);
    expect(lines).toContain('SUMMARY:');
    expect(lines).toContain('STATUS:TENTATIVE');
    expect(lines).toContain('SEQUENCE:0');
    expect(contentLines(out)).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT60M');
  });
});
