import { describe, expect, it } from 'vitest';
import { subscribeLinks } from './subscribe-links.js';

describe('subscribeLinks', () => {
  it.each([
    [
      'https://competitions.example/api/v0/calendar/rsl-prem-2026-27',
      'webcal://competitions.example/api/v0/calendar/rsl-prem-2026-27',
      'https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2Fcompetitions.example%2Fapi%2Fv0%2Fcalendar%2Frsl-prem-2026-27',
    ],
    [
      'http://127.0.0.1:4321/api/v0/teams/rsl-rovers/calendar',
      'webcal://127.0.0.1:4321/api/v0/teams/rsl-rovers/calendar',
      'https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2F127.0.0.1%3A4321%2Fapi%2Fv0%2Fteams%2Frsl-rovers%2Fcalendar',
    ],
  ])('%s', (https, webcal, google) => {
    expect(subscribeLinks(https)).toEqual({ https, webcal, google });
  });
});
