// A second, independent parser for the calendar feed: Python's `icalendar` (Debian: python3-icalendar).
// The feed is piped to `python3 -c` as bytes; the script unfolds, unescapes and types the values, and prints JSON.
// Skipped (with the reason in the test name and on stderr) only when no python3 can `import icalendar`.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { renderCalendar, type CalendarInput, type CalendarMatch } from '../src/competitions/calendar.js';
import { calendarInput, calendarMatch } from './support/builders/calendar.js';
import { RETIRED_CALENDAR_NAME, retiredFeed } from '../src/publish/retired-feeds.js';

// pyenv and similar shims put another python3 first on PATH; Debian's package lives under /usr/bin/python3.
const CANDIDATES = ['python3', '/usr/bin/python3'];

function findPython(): string | null {
  for (const candidate of CANDIDATES) {
    const probe = spawnSync(candidate, ['-c', 'import icalendar'], { encoding: 'utf8', timeout: 20_000 });
    if (probe.status === 0) return candidate;
  }
  return null;
}

const python = findPython();
const SKIP_REASON =
  'python3-icalendar is not importable by any of ' +
  CANDIDATES.join(', ') +
  ' (install it with `apt-get install -y python3-icalendar`)';
if (python === null) process.stderr.write(`[calendar-python.test] skipped: ${SKIP_REASON}\n`);

const SCRIPT = String.raw`
import sys, json
from icalendar import Calendar
data = sys.stdin.buffer.read()
cal = Calendar.from_ical(data)
def text(component, name):
    value = component.get(name)
    return None if value is None else str(value)
def when(component, name):
    prop = component.get(name)
    if prop is None:
        return None
    dt = prop.dt
    return {"iso": dt.isoformat(), "utc": dt.tzinfo is not None and dt.utcoffset().total_seconds() == 0}
events = []
for ev in cal.walk("VEVENT"):
    summary = ev.get("SUMMARY")
    events.append({
        "uid": text(ev, "UID"),
        "summary": text(ev, "SUMMARY"),
        "summary_language": None if summary is None else summary.params.get("LANGUAGE"),
        "description": text(ev, "DESCRIPTION"),
        "location": text(ev, "LOCATION"),
        "status": text(ev, "STATUS"),
        "sequence": None if ev.get("SEQUENCE") is None else int(ev.get("SEQUENCE")),
        "url": text(ev, "URL"),
        "dtstamp": when(ev, "DTSTAMP"),
        "dtstart": when(ev, "DTSTART"),
        "dtend": when(ev, "DTEND"),
    })
print(json.dumps({
    "name": cal.name,
    "version": text(cal, "VERSION"),
    "prodid": text(cal, "PRODID"),
    "calscale": text(cal, "CALSCALE"),
    "method": text(cal, "METHOD"),
    "calname": text(cal, "X-WR-CALNAME"),
    "refresh": text(cal, "REFRESH-INTERVAL"),
    "ttl": text(cal, "X-PUBLISHED-TTL"),
    "events": events,
    "errors": [[c.name, list(map(str, c.errors))] for c in cal.walk() if getattr(c, "errors", None)],
}, ensure_ascii=False))
`;

interface PyEvent {
  uid: string | null;
  summary: string | null;
  summary_language: string | null;
  description: string | null;
  location: string | null;
  status: string | null;
  sequence: number | null;
  url: string | null;
  dtstamp: { iso: string; utc: boolean } | null;
  dtstart: { iso: string; utc: boolean } | null;
  dtend: { iso: string; utc: boolean } | null;
}

interface PyCalendar {
  name: string;
  version: string | null;
  prodid: string | null;
  calscale: string | null;
  method: string | null;
  calname: string | null;
  refresh: string | null;
  ttl: string | null;
  events: PyEvent[];
  errors: unknown[];
}

function parseWithPython(ics: string): PyCalendar {
  if (python === null) throw new Error(SKIP_REASON);
  const run = spawnSync(python, ['-c', SCRIPT], { input: Buffer.from(ics, 'utf8'), timeout: 60_000, maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`python icalendar failed (${run.status}): ${run.stderr.toString('utf8')}`);
  return JSON.parse(run.stdout.toString('utf8')) as PyCalendar;
}

const match = (overrides: Partial<CalendarMatch> = {}) => calendarMatch({ description: 'Round 1', ...overrides });
const input = (overrides: Partial<CalendarInput> = {}) =>
  calendarInput({ refreshMinutes: 30, language: 'ar', matches: [match()], ...overrides });

const ARABIC = 'نادي النخيل ضد نادي الشروق — الجولة ١';
const EMOJI = 'Kickoff ⚽ 🏆 👨‍👩‍👧‍👦 🇸🇦';

describe.skipIf(python === null)(`round trip through Python icalendar${python === null ? ` (skipped: ${SKIP_REASON})` : ''}`, () => {
  it('reads the calendar properties', () => {
    const cal = parseWithPython(renderCalendar(input({ matches: [] })));
    expect(cal).toMatchObject({
      name: 'VCALENDAR',
      version: '2.0',
      prodid: '-//Competitions//Public Calendar v0//EN',
      calscale: 'GREGORIAN',
      method: null,
      calname: 'Riverside Sunday League — Winter 2026',
      events: [],
      errors: [],
    });
    expect(cal.refresh).toMatch(/^(PT30M|0:30:00)$/);
    expect(cal.ttl).toBe('PT30M');
  });

  it('reads the empty feed of a retired competition or team: its name, no event, no error', () => {
    const cal = parseWithPython(retiredFeed(30).join(''));
    expect(cal).toMatchObject({ name: 'VCALENDAR', version: '2.0', calname: RETIRED_CALENDAR_NAME, events: [], errors: [] });
    expect(cal.ttl).toBe('PT30M');
  });

  it('reads the event properties, with UTC times', () => {
    const cal = parseWithPython(
      renderCalendar(
        input({ matches: [match({ status: 'cancelled', sequence: 4, url: 'https://competitions.example/m/m-001' })] }),
      ),
    );
    expect(cal.errors).toEqual([]);
    expect(cal.events).toEqual([
      {
        uid: 'm-001.ev-winter-2026@competitions.example',
        summary: 'Riverside FC vs Harbour United',
        summary_language: 'ar',
        description: 'Round 1',
        location: 'Riverside Park, Pitch 2',
        status: 'CANCELLED',
        sequence: 4,
        url: 'https://competitions.example/m/m-001',
        dtstamp: { iso: '2026-03-01T10:00:00+00:00', utc: true },
        dtstart: { iso: '2026-03-07T18:30:00+00:00', utc: true },
        dtend: { iso: '2026-03-07T20:15:00+00:00', utc: true },
      },
    ]);
  });

  it.each([
    { name: 'Arabic', value: ARABIC },
    { name: 'comma, semicolon, backslash', value: 'a, b; c\\d' },
    { name: 'newlines', value: 'line one\nline two\n\nline four' },
    { name: 'emoji', value: EMOJI },
    { name: 'a 300-character Arabic text (folded)', value: 'ملعب'.repeat(75) },
    { name: 'long mixed text (folded)', value: `${ARABIC}, ${EMOJI}; x\n`.repeat(15) },
  ])('SUMMARY, DESCRIPTION, LOCATION, X-WR-CALNAME come back identical: $name', ({ value }) => {
    const cal = parseWithPython(
      renderCalendar(input({ calendarName: value, matches: [match({ summary: value, description: value, location: value })] })),
    );
    expect(cal.errors).toEqual([]);
    expect(cal.calname).toBe(value);
    expect(cal.events).toHaveLength(1);
    expect(cal.events[0]).toMatchObject({ summary: value, description: value, location: value });
  });

  it('control characters and lone surrogates are cleaned', () => {
    const cal = parseWithPython(
      renderCalendar(input({ matches: [match({ summary: 'a\u0000b\u001Fc\u007Fd\re\uD800f' })] })),
    );
    expect(cal.events[0]?.summary).toBe('abcd\ne\uFFFDf');
  });
});
