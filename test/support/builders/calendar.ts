// Test builders shared by the calendar tests (ical.js and python3-icalendar): one match, one calendar.
import type { CalendarInput, CalendarMatch } from '../../../src/competitions/calendar.js';

export function calendarMatch(overrides: Partial<CalendarMatch> = {}): CalendarMatch {
  return {
    id: 'm-001',
    summary: 'Riverside FC vs Harbour United',
    description: 'Round 1 — Riverside Sunday League',
    location: 'Riverside Park, Pitch 2',
    start: '2026-03-07T18:30:00Z',
    end: '2026-03-07T20:15:00Z',
    status: 'scheduled',
    sequence: 0,
    updatedAt: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

export function calendarInput(overrides: Partial<CalendarInput> = {}): CalendarInput {
  return {
    calendarName: 'Riverside Sunday League — Winter 2026',
    eventId: 'ev-winter-2026',
    uidDomain: 'competitions.example',
    refreshMinutes: 60,
    language: 'en',
    matches: [calendarMatch()],
    ...overrides,
  };
}
