// A team calendar's name, as calendar apps show it.
import { describe, expect, it } from 'vitest';
import { match } from '../../test/support/builders/matches.js';
import { calendarFeed } from '../competitions/calendar-feed.js';
import type { EventFacts } from '../competitions/types.js';
import { TeamCalendars, teamsByMatch } from './team-calendars.js';

const event = (language: 'en' | 'ar'): EventFacts => ({
  id: 'cup', league_id: 'l', league_name: 'L', org_id: 'o', org_name: 'O', language, timezone: 'UTC', name: 'Cup', competition_type: 'knockout',
  status: 'in_progress', starts_at: null, ends_at: null, venue_city: null, points: { win: 3, draw: 1, loss: 0 }, match_duration_min: 90,
});
const teams = new Map([
  ['salt', { id: 'salt', name: 'Al-Salt S.C.', name_ar: null }],
  ['amman', { id: 'amman', name: 'نادي عمّان', name_ar: null }],
]);
const final = { ...match({ id: 'f', role: 'winners', round: 1, home: 'salt', away: 'amman' }), kickoff_at: '2026-05-01T18:00:00Z' };

describe('a team calendar\'s name', () => {
  // A native Arabic review: "X-WR-CALNAME:\u200FAl-Salt S.C." showed as ".Al-Salt S.C", the full stop first.
  it.each([
    ['en', 'salt', 'X-WR-CALNAME:Al-Salt S.C.'],
    ['ar', 'salt', 'X-WR-CALNAME:\u200F\u2068Al-Salt S.C.\u2069'],
    ['ar', 'amman', 'X-WR-CALNAME:\u200F\u2068نادي عمّان\u2069'],
  ] as const)('%s, %s: %s', (language, team, line) => {
    const e = event(language);
    const calendars = new TeamCalendars();
    calendars.add(e, teamsByMatch(e, [final], teams), teams, calendarFeed(e, [final], teams, { uidDomain: 'x.example', refreshMinutes: 5 }));
    const lines = calendars.render(team, ['cup'], { refreshMinutes: 5 }).join('').split('\r\n');
    expect(lines).toContain(line);
    expect(lines).toContain(line.replace('X-WR-CALNAME:', 'NAME:'));
  });
});
