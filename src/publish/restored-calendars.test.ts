// Whether the database went back behind what the artifacts folder last rendered from it.
import { describe, expect, it } from 'vitest';
import { wentBack } from './restored-calendars.js';

describe('wentBack', () => {
  it.each<[string, { installation?: string; folder?: string; renderToken?: string }, { installation: string; token: string | null }, boolean]>([
    ['the token the folder last wrote', { installation: 'i1', folder: 'f', renderToken: 'T2' }, { installation: 'i1', token: 'T2' }, false],
    ['an older token (a backup restored)', { installation: 'i1', folder: 'f', renderToken: 'T2' }, { installation: 'i1', token: 'T1' }, true],
    ['none for the folder (a backup from before its first render)', { installation: 'i1', folder: 'f', renderToken: 'T2' }, { installation: 'i1', token: null }, true],
    ['a manifest from before tokens', { installation: 'i1' }, { installation: 'i1', token: null }, false],
    ['another installation\'s folder', { installation: 'i2', folder: 'f', renderToken: 'T2' }, { installation: 'i1', token: 'T1' }, false],
    ['an empty folder', {}, { installation: 'i1', token: 'T1' }, false],
  ])('%s', (_name, manifest, database, back) => {
    expect(wentBack(manifest, database)).toBe(back);
  });
});
