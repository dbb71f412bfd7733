import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from './nearest.js';

describe('nearest: the name a typo meant', () => {
  const settings = ['PORT', 'HOST', 'DATABASE_PATH', 'PUBLISH_S3_BUCKET', 'RATE_LIMIT_WRITES_PER_MIN', 'MAIL_TRANSPORT'];
  const fields = ['kickoff', 'home', 'away', 'venue', 'status', 'score', 'walkover', 'first_leg'];
  it.each([
    ['PUBLISH_S3_BUKET', settings, 'PUBLISH_S3_BUCKET'],
    ['mail_transport', settings, 'MAIL_TRANSPORT'],
    ['DATABSE_PATH', settings, 'DATABASE_PATH'],
    ['PROT', settings, 'PORT'],
    ['RATE_LIMIT_WRITE_PER_MIN', settings, 'RATE_LIMIT_WRITES_PER_MIN'],
    ['AWS_ACCESS_KEY_ID', settings, null],
    ['kick_off', fields, 'kickoff'],
    ['first-leg', fields, 'first_leg'],
    ['Venue', fields, 'venue'],
    ['result', fields, null],
    ['venue', fields, null],
  ])('%s', (name, candidates, meant) => {
    expect(nearest(name, candidates)).toBe(meant);
  });

  it.each([['', '', 0], ['abc', '', 3], ['kitten', 'sitting', 3], ['PROT', 'PORT', 2]])('editDistance(%j, %j) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});
