// What a registration must meet, as pure functions of the registration, the division and the day: a date of birth
// from 1900-01-01 to the registration day, and the division's window (opens_at / closes_at, instants), the days its
// players are born between (born_from / born_until) and guardian rule (a player younger than guardian_required_under
// years on the registration day must name a guardian and the guardian's phone). The registration day is the organization's, in its time zone (localDate of the request's
// instant): a player born in Amman at 01:00 and registered there at 01:30 is born today, not tomorrow.
import { formatDateTime, localDate } from '../time/local-time.js';

export interface DivisionTerms {
  opens_at: string | null;
  closes_at: string | null;
  guardian_required_under: number | null;
  /** Players born on or after this day (YYYY-MM-DD; null: no bound). */
  born_from: string | null;
  /** … and on or before this day. */
  born_until: string | null;
}

export interface RegistrantFacts {
  date_of_birth?: string | undefined;
  guardian_name?: string | undefined;
  guardian_phone?: string | undefined;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** How the window's problems begin (the answer pages tell a closed division by them: src/forms/answer-page.ts). */
export const OPENS_LATER = 'takes registrations from';
export const CLOSED_SINCE = 'stopped taking registrations on';

/**
 * Why the division takes no registration at `now`, or null when its window is open. The instant is told on the
 * organization's clock (`timeZone`), as the parent filling its form reads one: "2025-09-30T23:00:00Z" was midnight
 * in Northgate, and 02:00 the next day in Amman.
 */
export function windowProblem(terms: Pick<DivisionTerms, 'opens_at' | 'closes_at'>, now: Date, timeZone: string): FieldProblem | null {
  const t = now.getTime();
  const when = (instant: string) => formatDateTime(instant, timeZone, 'en') ?? instant;
  if (terms.opens_at !== null && t < Date.parse(terms.opens_at)) {
    return { field: 'division_id', message: `${OPENS_LATER} ${when(terms.opens_at)}` };
  }
  if (terms.closes_at !== null && t >= Date.parse(terms.closes_at)) {
    return { field: 'division_id', message: `${CLOSED_SINCE} ${when(terms.closes_at)}` };
  }
  return null;
}

/**
 * A division list left on its blank entry (`division_id` sent empty), where the organization has divisions the public
 * can register into: refused. A club form's list left on "choose" sent an empty division, and the registration reached
 * the organization past every age, guardian and window rule of its divisions (a registrations review). A registration
 * with no `division_id` at all (a form with no division list, an API client that names none) is taken without one, as
 * always: refusing it would turn away every registration of a form built without the field.
 */
export const DIVISION_REQUIRED = 'is required: choose one of the organization\'s divisions';

/** `divisionId` null: sent blank. */
export function blankDivisionProblem(divisionId: string | null | undefined, hasPublicDivisions: boolean): FieldProblem | null {
  return divisionId === null && hasPublicDivisions ? { field: 'division_id', message: DIVISION_REQUIRED } : null;
}

/** The earliest date of birth taken. */
export const EARLIEST_DATE_OF_BIRTH = '1900-01-01';

/**
 * Why a date of birth (`YYYY-MM-DD`, a real day: the request schema checks that much) cannot be, or null: before
 * 1900-01-01, or after `day`, the registration day in the organization's time zone. The request schema knows no
 * organization, so this is the one place the range is checked.
 */
export function dateOfBirthProblem(dateOfBirth: string | undefined, day: string): FieldProblem | null {
  if (dateOfBirth === undefined || (dateOfBirth >= EARLIEST_DATE_OF_BIRTH && dateOfBirth <= day)) return null;
  return { field: 'date_of_birth', message: `must be between ${EARLIEST_DATE_OF_BIRTH} and today` };
}

/** No field refused. */
const NONE: ReadonlySet<string> = new Set();

/** The days a division's players are born between, as its messages say them; null without a bound. */
function bornRange(from: string | null, until: string | null): string | null {
  if (from !== null && until !== null) return `from ${from} to ${until}`;
  if (from !== null) return `on or after ${from}`;
  if (until !== null) return `on or before ${until}`;
  return null;
}

/**
 * Why the date of birth does not fit the days the division's players are born between (both included), or null.
 * Youth football groups players by the day they were born, not by their age on the day a parent fills the form: a
 * 13-year-old's registration into an under-12 side reached the organization, to be turned away by hand.
 * Without a date of birth the division cannot tell: it is required. A refused one (its own error said) is skipped.
 */
export function birthDaysProblem(
  dateOfBirth: string | undefined,
  terms: Pick<DivisionTerms, 'born_from' | 'born_until'>,
  refused: ReadonlySet<string> = NONE,
): FieldProblem | null {
  const range = bornRange(terms.born_from, terms.born_until);
  if (range === null || refused.has('date_of_birth')) return null;
  if (dateOfBirth === undefined) return { field: 'date_of_birth', message: `is required: the division takes players born ${range}` };
  return bornWithin(dateOfBirth, terms) ? null : { field: 'date_of_birth', message: `must be ${range}${OUTSIDE_BIRTH_DAYS}` };
}

/** How birthDaysProblem's refusal ends (the answer pages tell it by this, to offer the divisions that fit). */
const OUTSIDE_BIRTH_DAYS = ' for this division';

/** Whether an API message is birthDaysProblem's refusal of a date of birth outside the division's days. */
export const isOutsideBirthDays = (message: string) => message.startsWith('must be ') && message.endsWith(OUTSIDE_BIRTH_DAYS);

/** Whether `dateOfBirth` is within the days a division's players are born between (both included; no bound: yes). */
function bornWithin(dateOfBirth: string, terms: Pick<DivisionTerms, 'born_from' | 'born_until'>): boolean {
  return (terms.born_from === null || dateOfBirth >= terms.born_from) && (terms.born_until === null || dateOfBirth <= terms.born_until);
}

/**
 * Of `divisions`, those a player born `dateOfBirth` could register into at `now`: their birth days set (a division
 * without them says nothing of age, and is not offered as the one that fits) and holding that day, their window open.
 * A parent refused by an under-14 side was told its days and left to work out which side takes a 2011 birthday (a
 * registrations review); the answer page names it.
 */
export function divisionsThatFit<T extends DivisionTerms>(dateOfBirth: string, divisions: readonly T[], now: Date): T[] {
  return divisions.filter((d) => bornRange(d.born_from, d.born_until) !== null && bornWithin(dateOfBirth, d)
    // The zone only words a refusal's time, and none is said here.
    && windowProblem(d, now, 'UTC') === null);
}

/** Age in whole years on `day` (both `YYYY-MM-DD`): a birthday counts from its own day; 29 February from 1 March. */
export function ageOn(dateOfBirth: string, day: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const hadBirthday = m > bm || (m === bm && d >= bd);
  return y - by - (hadBirthday ? 0 : 1);
}

/**
 * The fields a registration still lacks under the division's guardian rule on `day` (the registration's local date).
 * A field in `refused` (the request schema refused it, and said why) is never said to be missing; without a date of
 * birth that can be read the age is unknown, and the rule asks for nothing.
 */
export function guardianProblems(facts: RegistrantFacts, requiredUnder: number | null, day: string, refused: ReadonlySet<string> = NONE): FieldProblem[] {
  if (requiredUnder === null || refused.has('date_of_birth')) return [];
  if (facts.date_of_birth === undefined) {
    return [{ field: 'date_of_birth', message: `is required: players under ${requiredUnder} need a guardian` }];
  }
  if (ageOn(facts.date_of_birth, day) >= requiredUnder) return [];
  const problems: FieldProblem[] = [];
  const why = `is required for a player under ${requiredUnder}`;
  if (facts.guardian_name === undefined && !refused.has('guardian_name')) problems.push({ field: 'guardian_name', message: why });
  if (facts.guardian_phone === undefined && !refused.has('guardian_phone')) problems.push({ field: 'guardian_phone', message: why });
  return problems;
}

/**
 * Every problem the organization's day and the division's terms (`terms`; null without a division) find in a
 * registration, all at once: the date of birth's range, the division's birth days, the window, the guardian rule. A parent without script on a
 * club's form met them one round at a time (the email, then "date of birth is required", then the guardian). The
 * fields in `refused` are those the request schema refused: their own error is already said, so a rule skips them
 * (facts holds none of them), and a date of birth out of range tells no age either.
 */
export function registrationProblems(
  facts: RegistrantFacts,
  terms: DivisionTerms | null,
  now: Date,
  timeZone: string,
  refused: ReadonlySet<string> = NONE,
): FieldProblem[] {
  const day = localDate(now, timeZone);
  const born = dateOfBirthProblem(facts.date_of_birth, day);
  if (terms === null) return born ? [born] : [];
  const closed = windowProblem(terms, now, timeZone);
  const unreadable = born ? new Set([...refused, 'date_of_birth']) : refused;
  const outside = birthDaysProblem(facts.date_of_birth, terms, unreadable);
  // One message for a missing date of birth: the division's days say it is required, the guardian rule need not.
  const guardian = guardianProblems(facts, terms.guardian_required_under, day, unreadable)
    .filter((p) => !(outside && p.field === 'date_of_birth'));
  return [...(born ? [born] : []), ...(outside ? [outside] : []), ...(closed ? [closed] : []), ...guardian];
}
