// Examples of the OpenAPI document, taken from the demo data (data/demo.json) as the service renders it.
// test/contract.test.ts checks that each one is still what the running service answers for the demo data.

export const EVENTS_EXAMPLE = [
  {
    league_id: 'rsl-cup',
    event_id: 'rsl-cup-2026',
    league_name: 'Challenge Cup',
    event_name: 'Challenge Cup 2026',
    competition_type: 'knockout',
    status: 'completed',
    starts_at: '2026-09-20T09:30:00Z',
    ends_at: '2026-11-01T15:00:00Z',
    venue_city: 'Manchester',
    champion_name: 'Westgate Wanderers',
    org_id: 'riverside-sfl',
    timezone: 'Europe/London',
    language: 'en',
    event_name_ar: null,
    league_name_ar: null,
    champion_name_ar: null,
  },
  {
    league_id: 'rsl-premier',
    event_id: 'rsl-prem-2026-27',
    league_name: 'Premier Division',
    event_name: 'Premier Division 2026–27',
    competition_type: 'league',
    status: 'in_progress',
    starts_at: '2026-09-13T09:30:00Z',
    ends_at: '2027-02-07T12:00:00Z',
    venue_city: 'Manchester',
    champion_name: null,
    org_id: 'riverside-sfl',
    timezone: 'Europe/London',
    language: 'en',
    event_name_ar: null,
    league_name_ar: null,
    champion_name_ar: null,
  },
];

const row = (
  rank: number,
  club_name: string,
  [played, won, drawn, lost, goals_for, goals_against, points]: number[],
  team_id: string,
  group_name: string | null = null,
  club_name_ar: string | null = null,
) => ({
  rank, club_name, played: played!, won: won!, drawn: drawn!, lost: lost!, goals_for: goals_for!, goals_against: goals_against!, points: points!,
  team_id, group_name, adjustment_points: null, club_name_ar,
});

export const STANDINGS_EXAMPLE = [
  row(1, 'Riverside Rovers', [6, 5, 0, 1, 14, 5, 15], 'rsl-rovers'),
  row(2, 'Harbour Lane FC', [5, 3, 1, 1, 12, 5, 10], 'rsl-harbour-lane'),
  row(3, 'Ashford Park Rangers', [5, 3, 1, 1, 7, 5, 10], 'rsl-ashford-park'),
  row(4, 'Old Mill Athletic', [6, 2, 1, 3, 8, 10, 7], 'rsl-old-mill'),
  row(5, 'Crown & Anchor FC', [6, 2, 1, 3, 8, 10, 7], 'rsl-crown-anchor'),
  row(6, 'Al-Noor FC', [6, 0, 0, 6, 3, 17, 0], 'rsl-al-noor', null, 'نادي النور'),
];

export const GROUP_STANDINGS_EXAMPLE = [
  row(1, 'نادي شباب عمّان للناشئين', [3, 2, 1, 0, 6, 1, 7], 'amm-shabab-amman', 'المجموعة أ', 'نادي شباب عمّان للناشئين'),
  row(2, 'أكاديمية جبل الحسين', [3, 1, 2, 0, 4, 3, 5], 'amm-jabal-hussein', 'المجموعة أ', 'أكاديمية جبل الحسين'),
];

const slot = (side: 'home' | 'away', team_id: string, team_name: string, source_match_id: string, [score, penalties]: [number, number]) => ({
  match_id: 'rsl-cup-final',
  round_ordinal: 3,
  side,
  team_id,
  bracket_role: 'winners',
  source_match_id,
  source_outcome: 'winner',
  status: 'completed',
  winner_team_id: 'rsl-westgate',
  team_name,
  kickoff_at: '2026-11-01T13:30:00Z',
  score,
  penalties,
  leg: null,
  first_leg_match_id: null,
  source_group: null,
  source_position: null,
  source_best_placed: null,
  source_slot: null,
  source_groups: null,
  team_name_ar: null,
  round_name: 'Final',
  walkover: false,
  after_extra_time: false,
});

export const BRACKET_EXAMPLE = [
  slot('home', 'rsl-old-mill', 'Old Mill Athletic', 'rsl-cup-sf1', [2, 3]),
  slot('away', 'rsl-westgate', 'Westgate Wanderers', 'rsl-cup-sf2', [2, 4]),
];

/** The feed's head and its first VEVENT (UIDs are named after the host of PUBLIC_BASE_URL). */
export const CALENDAR_EXAMPLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'CALSCALE:GREGORIAN',
  'PRODID:-//Competitions//Public Calendar v0//EN',
  'X-WR-CALNAME:Premier Division 2026–27',
  'REFRESH-INTERVAL;VALUE=DURATION:PT5M',
  'X-PUBLISHED-TTL:PT5M',
  'BEGIN:VEVENT',
  'UID:rsl-prem-r01-1.rsl-prem-2026-27@localhost',
  'SUMMARY;LANGUAGE=en:Riverside Rovers vs Al-Noor FC',
  'DTSTAMP:20261121T232037Z',
  'DTSTART:20260913T093000Z',
  'DTEND:20260913T110000Z',
  'SEQUENCE:0',
  'DESCRIPTION;LANGUAGE=en:Premier Division 2026–27\\nRound 1\\nResult: Rivers',
  ' ide Rovers 3–1 Al-Noor FC',
  'LOCATION;LANGUAGE=en:Pitch 2\\; North Stand\\, Riverside Park\\, Manchester',
  'STATUS:CONFIRMED',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

export const RSVP_SUMMARY_EXAMPLE = {
  match_id: 'rsl-prem-r07-2',
  summary: { yes: 9, no: 1, maybe: 2, pending: 4 },
  teams: [
    { team_id: 'rsl-crown-anchor', summary: { yes: 4, no: 1, maybe: 1, pending: 2 } },
    { team_id: 'rsl-old-mill', summary: { yes: 5, no: 0, maybe: 1, pending: 2 } },
  ],
};
export const RSVP_RESPOND_REQUEST_EXAMPLE = { token: 'TOKEN_FROM_THE_INVITE_EMAIL_43_CHARACTERS_x', status: 'yes' };
export const RSVP_RESPOND_RESULT_EXAMPLE = {
  match_id: 'rsl-prem-r07-2',
  status: 'yes',
  summary: { yes: 10, no: 1, maybe: 2, pending: 3 },
  teams: [
    { team_id: 'rsl-crown-anchor', summary: { yes: 4, no: 1, maybe: 1, pending: 2 } },
    { team_id: 'rsl-old-mill', summary: { yes: 6, no: 0, maybe: 1, pending: 1 } },
  ],
};

export const FOLLOW_REQUEST_EXAMPLE = { org_id: 'riverside-sfl', league_id: 'rsl-premier', email: 'fan@example.org' };

export const REGISTRATION_REQUEST_EXAMPLE = {
  org_id: 'amman-yfa',
  division_id: 'amm-reg-u12',
  name: 'Omar Haddad',
  name_ar: 'عمر حداد',
  email: 'lina.haddad@example.org',
  date_of_birth: '2015-03-04',
  guardian_name: 'Lina Haddad',
  guardian_phone: '+962 79 555 0101',
};
export const REGISTRATION_RESULT_EXAMPLE = { status: 'submitted', id: 'reg_Yx3b9QeLr0T2mVw8' };
