// Endpoint 5 (GET /api/v0/calendar/[eventId]): renders one competition's matches as an iCalendar feed.
//
// renderCalendar is pure and deterministic: the same input gives byte-identical output (no random UID, no "now").
//
// The VEVENTs are built by the `ics` package (a product requirement), wrapped because ics 3.12 is not correct
// on its own for this feed:
// - it folds by characters, not octets (an Arabic or emoji line overflows 75 octets), with CRLF + TAB;
//   -> we unfold its output and re-fold at 75 octets on code point boundaries (ical-text.ts foldLine);
// - its folding is also super-linear (runes2 re-scans the whole rest of the line for every 75-character chunk):
//   a 32,000-character description takes ~10 s, 140,000 characters take minutes;
// - it passes control characters through (a lone CR even ends up raw in the output), and does not escape
//   X-WR-CALNAME nor UID (only raw newlines are encoded);
//   -> for the TEXT values (X-WR-CALNAME, UID, SUMMARY, DESCRIPTION, LOCATION) ics gets a short placeholder, and
//      the property's value is replaced by our own: sanitized (ical-text.ts sanitizeText) and escaped per
//      RFC 5545 3.3.11 (escapeText). Rendering time stays linear in the text size.
// - it drops SUMMARY / DESCRIPTION / LOCATION / X-WR-CALNAME when the value is an empty string;
//   -> the placeholders decide: SUMMARY and X-WR-CALNAME always present, DESCRIPTION and LOCATION only when non-empty;
// - it defaults UID to a random nanoid and DTSTAMP to Date.now(), and reads a DTSTAMP date array as *local* time
//   whatever startInputType says; -> we always pass uid, and timestamp as epoch milliseconds (zone-independent);
// - it hard-codes X-PUBLISHED-TTL:PT1H and has no REFRESH-INTERVAL; -> header lines replaced/added;
// - it has no way to put a LANGUAGE parameter on a property; -> added to SUMMARY, DESCRIPTION, LOCATION.
// ics still produces the calendar skeleton (BEGIN/END VCALENDAR, VERSION, CALSCALE, PRODID, METHOD), the VEVENT
// structure and property order, DTSTAMP, DTSTART and DTEND (UTC, from epoch milliseconds, outputType 'utc'),
// SEQUENCE, STATUS and URL, and validates them with its schema.
import * as ics from 'ics';
import type { EventAttributes, EventStatus, HeaderAttributes } from 'ics';
import type { MatchStatus } from '../vocabulary/enums.js';
import type { Language } from '../vocabulary/language.js';
import { CRLF, escapeText, sanitizeText, serializeLines, unfold } from './ical-text.js';

export interface CalendarMatch {
  /** Match identifier; with eventId and uidDomain it makes the VEVENT UID. */
  id: string;
  summary: string;
  description: string;
  /** Venue; null (or empty) leaves LOCATION out. */
  location: string | null;
  /** Kickoff, RFC 3339 ("2026-03-07T18:30:00Z"). A match whose start cannot be read gets no VEVENT. */
  start: string;
  /** End, RFC 3339. Unreadable or not after start: DTEND is left out (RFC 5545: the event then ends at DTSTART). */
  end: string;
  /** The public one (publicMatchStatus). */
  status: MatchStatus;
  /** Rises whenever the match changes (iCalendar SEQUENCE). */
  sequence: number;
  /** Last change, RFC 3339: becomes DTSTAMP, so the output never depends on the clock. */
  updatedAt: string;
  /** Public page of the match (absolute http(s) URL); left out when absent or not a valid URL. */
  url?: string | null;
  /** The match's competition, where a feed spans several (a team's): its UID is the competition feed's. */
  eventId?: string;
}

export interface CalendarInput {
  /** Shown by calendar apps as the subscription's name (X-WR-CALNAME). Empty: the eventId is used. */
  calendarName: string;
  eventId: string;
  /** Host that namespaces UIDs, e.g. the host of PUBLIC_BASE_URL ("competitions.example"). Keep it stable. */
  uidDomain: string;
  /** How often clients should re-fetch: REFRESH-INTERVAL and X-PUBLISHED-TTL (whole minutes, at least 1). */
  refreshMinutes: number;
  /** Language of the texts; adds LANGUAGE=en|ar to SUMMARY, DESCRIPTION and LOCATION. */
  language?: Language;
  matches: CalendarMatch[];
}

/** Our own PRODID (RFC 5545 3.7.3: a formal public identifier; "EN" is the language of this identifier). */
export const CALENDAR_PRODID = '-//Competitions//Public Calendar v0//EN';

/** Used when refreshMinutes is not a usable number. */
export const DEFAULT_REFRESH_MINUTES = 60;

const MAX_SEQUENCE = 2_147_483_647; // ics (and RFC 5545 INTEGER) limit
const MAX_URL_LENGTH = 2048;

/**
 * RFC 5545 STATUS of a VEVENT for a match status. VEVENT STATUS only knows TENTATIVE, CONFIRMED and CANCELLED:
 * - scheduled, in_progress, completed: the match happens (happened) at that time -> CONFIRMED;
 * - postponed: the match will still be played but its stored kickoff is no longer a confirmed time, and a new
 *   one is not known yet. CANCELLED would make many clients delete or strike through the event, which is wrong
 *   for a match that will take place; TENTATIVE ("not confirmed") is the honest value. When the new date is set
 *   the match changes, SEQUENCE rises and the event returns to CONFIRMED at its new time, with the same UID;
 * - cancelled -> CANCELLED (clients keep the UID and show it as cancelled).
 * An unknown status (bad data) is treated as TENTATIVE rather than failing the whole feed.
 */
export function icalStatus(status: MatchStatus): EventStatus {
  switch (status) {
    case 'scheduled':
    case 'in_progress':
    case 'completed':
      return 'CONFIRMED';
    case 'cancelled':
      return 'CANCELLED';
    case 'postponed':
    default:
      return 'TENTATIVE';
  }
}

/**
 * The UID of a match's VEVENT: `${matchId}.${eventId}@${uidDomain}` (domain lower-cased). Built from identifiers
 * only, so it never changes while the match exists (times, names and status changes keep it). Identifiers are
 * URL-safe and never contain ".", so the id pair is unambiguous. Returned unescaped (escape it as TEXT in output).
 */
export function matchUid(eventId: string, matchId: string, uidDomain: string): string {
  return `${sanitizeText(matchId)}.${sanitizeText(eventId)}@${sanitizeText(uidDomain).toLowerCase()}`;
}

/** The last instant of year 9999: a 4-digit year is all a DATE-TIME can hold. */
const LAST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Parses an RFC 3339 instant to epoch ms, or null when it cannot be written as an iCalendar UTC DATE-TIME. */
function parseInstant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value.trim()); // NaN for an empty string
  // ics validates epoch milliseconds as >= 0.
  if (!Number.isFinite(ms) || ms < 0 || ms > LAST_INSTANT_MS) return null;
  return Math.floor(ms / 1000) * 1000; // DATE-TIME has whole seconds; drop milliseconds before comparing
}

function refreshDuration(minutes: unknown): string {
  const n =
    typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 1
      ? Math.min(Math.round(minutes), 525_600)
      : DEFAULT_REFRESH_MINUTES;
  return `PT${n}M`;
}

function cleanSequence(sequence: unknown): number {
  if (typeof sequence !== 'number' || !Number.isFinite(sequence) || sequence < 0) return 0;
  return Math.min(Math.floor(sequence), MAX_SEQUENCE);
}

const icsIsValidUrl: ((url: string) => boolean) | undefined = (ics as unknown as { isValidURL?: (url: string) => boolean })
  .isValidURL;

/** An absolute http(s) URL in ASCII form (non-ASCII percent-/punycode-encoded) of at most 2048 characters, or null. */
function cleanUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.trim() === '') return null;
  let href: string;
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    href = parsed.href;
  } catch {
    return null;
  }
  if (!/^[\x21-\x7E]+$/.test(href)) return null;
  // ics folds (slowly) what it writes; a match page URL is never this long, anything longer is bad data.
  if (href.length > MAX_URL_LENGTH) return null;
  // ics rejects the whole calendar on a URL its own pattern refuses: never hand it one.
  if (icsIsValidUrl && !icsIsValidUrl(href)) return null;
  return href;
}

interface PreparedMatch {
  id: string;
  uid: string;
  startMs: number;
  endMs: number | null;
  stampMs: number;
  summary: string;
  description: string;
  location: string;
  status: EventStatus;
  sequence: number;
  url: string | null;
}

function prepare(input: CalendarInput): PreparedMatch[] {
  const eventId = sanitizeText(input.eventId);
  const uidDomain = sanitizeText(input.uidDomain);
  const prepared: PreparedMatch[] = [];
  for (const match of Array.isArray(input.matches) ? input.matches : []) {
    if (match === null || typeof match !== 'object') continue;
    const startMs = parseInstant(match.start);
    if (startMs === null) continue; // nothing to put in a calendar without a start
    const endCandidate = parseInstant(match.end);
    const id = sanitizeText(match.id);
    prepared.push({
      id,
      uid: matchUid(match.eventId === undefined ? eventId : sanitizeText(match.eventId), id, uidDomain),
      startMs,
      endMs: endCandidate !== null && endCandidate > startMs ? endCandidate : null,
      // DTSTAMP is required; a bad updatedAt falls back to the start (still deterministic).
      stampMs: parseInstant(match.updatedAt) ?? startMs,
      summary: sanitizeText(match.summary),
      description: sanitizeText(match.description),
      location: sanitizeText(match.location),
      status: icalStatus(match.status),
      sequence: cleanSequence(match.sequence),
      url: cleanUrl(match.url),
    });
  }
  // Deterministic order: by start, then id (code unit order, locale-independent).
  prepared.sort((a, b) => a.startMs - b.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // One VEVENT per UID: a repeated match id (bad data) would give clients two events with one UID.
  const seen = new Set<string>();
  return prepared.filter((m) => (seen.has(m.uid) ? false : (seen.add(m.uid), true)));
}

/** ics's event attributes; it also reads `timestamp` (DTSTAMP), which its type declarations omit. */
type IcsEvent = EventAttributes & { timestamp: number };

// Placeholders handed to ics for TEXT values; the real, escaped values replace them in its output.
// Plain ASCII letters and digits: ics passes them through unchanged and its folding stays cheap.
const TEXT_PLACEHOLDER = 'TEXTPLACEHOLDER';
const uidPlaceholder = (index: number): string => `UIDPLACEHOLDER${index}`;

function toIcsEvent(m: PreparedMatch, index: number): IcsEvent {
  const base = {
    uid: uidPlaceholder(index),
    title: TEXT_PLACEHOLDER, // always set: SUMMARY is always written (an empty summary gives "SUMMARY:")
    ...(m.description !== '' ? { description: TEXT_PLACEHOLDER } : {}),
    ...(m.location !== '' ? { location: TEXT_PLACEHOLDER } : {}),
    timestamp: m.stampMs, // epoch ms: a date array here would be read as local time by ics
    start: m.startMs,
    startInputType: 'utc' as const,
    startOutputType: 'utc' as const,
    endInputType: 'utc' as const,
    endOutputType: 'utc' as const,
    sequence: m.sequence,
    status: m.status,
    ...(m.url !== null ? { url: m.url } : {}),
  };
  if (m.endMs !== null) return { ...base, end: m.endMs };
  // No usable end: neither end nor duration (ics accepts that at run time; its types insist on one of them).
  return base as unknown as IcsEvent;
}

function propertyName(line: string): string {
  const match = /^[A-Za-z0-9-]+/.exec(line);
  return match ? match[0].toUpperCase() : '';
}

function contentLine(name: string, language: string | null, value: string): string {
  return `${name}${language !== null ? `;LANGUAGE=${language}` : ''}:${value}`;
}

class IcsOutputError extends Error {
  constructor(detail: string) {
    super(`unexpected ics output: ${detail}`);
    this.name = 'IcsOutputError';
  }
}

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * iCalendar UTC DATE-TIME, as ics writes it with outputType 'utc': 20260307T183000Z. From the date's parts, not by
 * editing toISOString's text: three a match, 600,000 in a full regeneration, where two regular expressions each cost
 * five times this. Years 0 to 9999 only (parseInstant admits no other).
 */
export function utcDateTime(ms: number): string {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  return (
    (year < 1000 ? String(year).padStart(4, '0') : `${year}`) +
    twoDigits(d.getUTCMonth() + 1) +
    twoDigits(d.getUTCDate()) +
    'T' +
    twoDigits(d.getUTCHours()) +
    twoDigits(d.getUTCMinutes()) +
    twoDigits(d.getUTCSeconds()) +
    'Z'
  );
}

/** A line of a shape, with the property it sets ('' for BEGIN/END:VEVENT): read once, not for every match. */
interface ShapeLine {
  name: string;
  line: string;
}

/**
 * ics validates every event with its schema (yup), which costs ~0.4 ms an event: 40 ms for a 100-match
 * calendar, over a minute for a full regeneration of 2,000 calendars. The events of one calendar differ only
 * in their values, so ics renders (and validates) one sample VEVENT per shape (which optional properties are
 * present), and the shape's property order is reused for every match of that shape, each value written by
 * us exactly as ics writes it. Shapes are cached for the life of the process.
 */
const veventShapes = new Map<string, ShapeLine[]>();

function shapeKey(m: PreparedMatch): string {
  return `${m.description !== '' ? 'D' : ''}${m.location !== '' ? 'L' : ''}${m.endMs !== null ? 'E' : ''}${m.url !== null ? 'U' : ''}`;
}

/**
 * No METHOD property: METHOD makes a calendar an iTIP message (RFC 5546), and METHOD:PUBLISH requires an ORGANIZER
 * in every VEVENT, which a public feed has no honest value for (libical's iTIP check failed every feed). A feed a
 * calendar app subscribes to is plain RFC 5545, which needs no METHOD. ics writes PUBLISH unless given ''.
 */
const NO_METHOD = '';

/** The content lines of ics's VEVENT for this shape (unfolded), rendered from the match itself. */
function veventShape(m: PreparedMatch): ShapeLine[] {
  const key = shapeKey(m);
  let lines = veventShapes.get(key);
  if (!lines) {
    const result = ics.createEvents([toIcsEvent(m, 0)], { productId: CALENDAR_PRODID, method: NO_METHOD });
    if (result.error || result.value === null) {
      throw new Error(`ics could not build an event: ${result.error?.message ?? 'no output'}`);
    }
    const all = unfold(result.value).split(CRLF);
    const vevent = all.slice(all.indexOf('BEGIN:VEVENT'), all.indexOf('END:VEVENT') + 1);
    if (vevent.length < 2) throw new IcsOutputError('no VEVENT');
    lines = vevent.map((line) => ({ name: line === 'BEGIN:VEVENT' || line === 'END:VEVENT' ? '' : propertyName(line), line }));
    veventShapes.set(key, lines);
  }
  return lines;
}

/** One match's VEVENT: ics's lines for its shape, every per-match value written by us. */
function veventLines(m: PreparedMatch, language: string | null, out: string[]): void {
  for (const { name, line } of veventShape(m)) {
    switch (name) {
      case 'UID':
        out.push(`UID:${escapeText(m.uid)}`);
        break;
      case 'SUMMARY':
        out.push(contentLine(name, language, escapeText(m.summary)));
        break;
      case 'DESCRIPTION':
        out.push(contentLine(name, language, escapeText(m.description)));
        break;
      case 'LOCATION':
        out.push(contentLine(name, language, escapeText(m.location)));
        break;
      case 'DTSTAMP':
        out.push(`DTSTAMP:${utcDateTime(m.stampMs)}`);
        break;
      case 'DTSTART':
        out.push(`DTSTART:${utcDateTime(m.startMs)}`);
        break;
      case 'DTEND':
        if (m.endMs === null) throw new IcsOutputError('DTEND in a shape without an end');
        out.push(`DTEND:${utcDateTime(m.endMs)}`);
        break;
      case 'SEQUENCE':
        out.push(`SEQUENCE:${m.sequence}`);
        break;
      case 'STATUS':
        out.push(`STATUS:${m.status}`);
        break;
      case 'URL':
        if (m.url === null) throw new IcsOutputError('URL in a shape without a URL');
        out.push(`URL:${m.url}`);
        break;
      default:
        // BEGIN/END and any constant property ics writes for every event.
        out.push(line);
    }
  }
}

/** The calendar's own properties as ics writes them (no events: header only), computed once. */
let headerLines: string[] | undefined;
function calendarHeader(): string[] {
  if (!headerLines) {
    const header: HeaderAttributes = { productId: CALENDAR_PRODID, method: NO_METHOD, calName: TEXT_PLACEHOLDER };
    const result = ics.createEvents([], header);
    if (result.error || result.value === null) {
      throw new Error(`ics could not build the calendar: ${result.error?.message ?? 'no output'}`);
    }
    const lines = unfold(result.value).split(CRLF);
    if (lines[lines.length - 1] === '') lines.pop();
    const footer = lines.pop();
    if (footer !== 'END:VCALENDAR') throw new IcsOutputError(`last line ${footer}`);
    const calName = lines.find((l) => propertyName(l) === 'X-WR-CALNAME');
    if (!calName || calName.slice(calName.indexOf(':') + 1) !== TEXT_PLACEHOLDER) throw new IcsOutputError('no X-WR-CALNAME');
    headerLines = lines.filter((l) => propertyName(l) !== 'X-PUBLISHED-TTL' && propertyName(l) !== 'REFRESH-INTERVAL');
  }
  return headerLines;
}

/** A match's VEVENT as a feed holds it (folded lines, each ending in CRLF), with what orders it among others. */
export interface RenderedVevent {
  uid: string;
  id: string;
  startMs: number;
  text: string;
}

/**
 * The VEVENTs of a feed's matches, in the feed's order: what renderCalendar puts between the header and the end. A
 * team's feed reuses them (assembleCalendar) instead of rendering each match again for each of its two teams.
 */
export function renderVevents(input: Pick<CalendarInput, 'eventId' | 'uidDomain' | 'language' | 'matches'>): RenderedVevent[] {
  const language = input.language === 'en' || input.language === 'ar' ? input.language : null;
  return prepare({ ...input, calendarName: '', refreshMinutes: 0 }).map((m) => {
    const lines: string[] = [];
    veventLines(m, language, lines);
    return { uid: m.uid, id: m.id, startMs: m.startMs, text: serializeLines(lines) };
  });
}

/** A feed from its header's inputs and its VEVENTs, in the order given (one per UID: the caller's to ensure). */
export function assembleCalendar(
  input: Pick<CalendarInput, 'calendarName' | 'eventId' | 'refreshMinutes'>,
  vevents: readonly RenderedVevent[],
): string {
  return assembleCalendarParts(input, vevents).join('');
}

/**
 * The same feed as the parts it is made of, for a writer that encodes them one after the other (ArtifactStore.put):
 * joined, each of the 250 MB of feeds of the bench's full render was built as one more string first (about 0.4 s
 * of its CPU).
 */
export function assembleCalendarParts(
  input: Pick<CalendarInput, 'calendarName' | 'eventId' | 'refreshMinutes'>,
  vevents: readonly RenderedVevent[],
): string[] {
  const refresh = refreshDuration(input.refreshMinutes);
  const calendarName = sanitizeText(input.calendarName) || sanitizeText(input.eventId);
  const out: string[] = [];
  for (const line of calendarHeader()) {
    if (propertyName(line) !== 'X-WR-CALNAME') {
      out.push(line);
      continue;
    }
    // X-WR-CALNAME is what Google, Apple and Outlook read; NAME is RFC 7986's, for the clients that follow it.
    out.push(`X-WR-CALNAME:${escapeText(calendarName)}`, `NAME:${escapeText(calendarName)}`);
  }
  if (!out.some((l) => propertyName(l) === 'X-WR-CALNAME')) throw new IcsOutputError('no X-WR-CALNAME');
  // RFC 7986 REFRESH-INTERVAL is the standard; X-PUBLISHED-TTL is what Outlook reads (ics hard-codes PT1H).
  out.push(`REFRESH-INTERVAL;VALUE=DURATION:${refresh}`);
  out.push(`X-PUBLISHED-TTL:${refresh}`);
  const parts = [serializeLines(out)];
  for (const v of vevents) parts.push(v.text);
  // RFC 5545 3.6: a calendar has at least one component. With no match to show (none dated yet, a team with nothing
  // left), the feed carries UTC's time zone, which every time in it is anyway.
  if (vevents.length === 0) parts.push(serializeLines(UTC_TIMEZONE));
  parts.push(serializeLines(['END:VCALENDAR']));
  return parts;
}

/** The smallest valid VTIMEZONE (RFC 5545 3.6.5: a TZID and one observance): UTC, no offset ever. */
const UTC_TIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:UTC',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0000',
  'TZNAME:UTC',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/**
 * Renders the competition's iCalendar feed. Pure: no clock, no randomness, no I/O.
 * Output: CRLF line ends (the last line included), lines of at most 75 octets folded with CRLF + space on
 * UTF-8 character boundaries, TEXT escaped, control characters removed, lone surrogates replaced by U+FFFD.
 */
export function renderCalendar(input: CalendarInput): string {
  return assembleCalendar(input, renderVevents(input));
}
