import { describe, expect, it } from 'vitest';
import type { RsvpAnswer } from '../vocabulary/enums.js';
import { closedBecause, pageTexts, RSVP_PAGE_WORDS, type PageNotice } from './page-words.js';
import type { RsvpState } from './state.js';

const en = RSVP_PAGE_WORDS.en;

describe('pageTexts: what the RSVP page says after a post, and why answers are closed', () => {
  const open = { state: 'open' as RsvpState, closed: false, response: null as RsvpAnswer | null };
  const kickedOff = { state: 'kicked_off' as RsvpState, closed: true, response: 'yes' as RsvpAnswer | null };
  it.each<[string, typeof open, PageNotice, { outcome: string; outcomeTitle: string; closedNotice: string }]>([
    ['open, nothing posted', open, null, { outcome: '', outcomeTitle: '', closedNotice: '' }],
    ['saved', { ...open, response: 'yes' }, 'saved', { outcome: en.saved, outcomeTitle: en.saved, closedNotice: '' }],
    ['saved as the match moved: a shorter title', { ...open, response: 'no' }, 'moved', { outcome: en.moved, outcomeTitle: en.movedTitle, closedNotice: '' }],
    ['no choice sent to an open match', open, 'choose', { outcome: en.choose, outcomeTitle: en.choose, closedNotice: '' }],
    // Refused as closed: why first, the answer that stands below the buttons.
    ['refused after kickoff', kickedOff, 'refused', { outcome: `${en.notSaved} ${en.closed}`, outcomeTitle: en.notSaved, closedNotice: 'The answer recorded: Yes.' }],
    // A post without a choice to a closed match is refused for being closed, not asked to choose.
    ['no choice sent after kickoff', kickedOff, 'choose', { outcome: `${en.notSaved} ${en.closed}`, outcomeTitle: en.notSaved, closedNotice: 'The answer recorded: Yes.' }],
    ['closed, nothing posted: why, and the answer given', kickedOff, null, { outcome: '', outcomeTitle: '', closedNotice: `${en.closed} The answer recorded: Yes.` }],
    ['cancelled without an answer', { state: 'cancelled', closed: true, response: null }, null, { outcome: '', outcomeTitle: '', closedNotice: en.cancelled }],
    ['its competition cancelled, refused', { state: 'competition_cancelled', closed: true, response: 'maybe' }, 'refused',
      { outcome: `${en.notSaved} ${en.competitionCancelled}`, outcomeTitle: en.notSaved, closedNotice: 'The answer recorded: Maybe.' }],
  ])('%s', (_label, view, notice, texts) => {
    expect(pageTexts(en, view, notice)).toEqual(texts);
  });

  it.each<[RsvpState, string]>([
    ['open', ''], ['postponed', en.postponed], ['cancelled', en.cancelled], ['competition_cancelled', en.competitionCancelled], ['played', en.played], ['kicked_off', en.closed],
  ])('closed because the match is %s', (state, words) => {
    expect(closedBecause(en, state)).toBe(words);
  });

  it('has every word in Arabic too, the answers as the emails name them', () => {
    expect(Object.keys(RSVP_PAGE_WORDS.ar).sort()).toEqual(Object.keys(en).sort());
    expect(pageTexts(RSVP_PAGE_WORDS.ar, kickedOff, 'refused').closedNotice).toBe('الرد المسجّل: نعم.');
  });
});
