// A match's status as the public is told it: its own, except in a competition cancelled as a whole, where every
// match not completed is cancelled, whatever its own status says (README, calendar feed). The calendar feed, the
// RSVP invitations (the command, the answer, the page) and the invitation email all read a match through this one rule.
import type { EventStatus, MatchStatus } from '../vocabulary/enums.js';

export function publicMatchStatus(matchStatus: MatchStatus, eventStatus: EventStatus): MatchStatus {
  return eventStatus === 'cancelled' && matchStatus !== 'completed' ? 'cancelled' : matchStatus;
}
