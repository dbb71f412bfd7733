import { describe, expect, it } from 'vitest';
import { demoBeside, demoOrganizationIds, demoRefusal } from './demo-data.js';

const bucket = { bucket: 'reads' } as never;

describe('demoRefusal: whether npm start loads the demo into an empty database', () => {
  it.each<[string, Parameters<typeof demoRefusal>[0], string | null]>([
    ['a first start on the defaults: loaded', { loadDemo: 'auto', publishS3: null, mailTransport: 'file' }, null],
    // An operator's review: a first start with the bucket configured published the demo to the CDN.
    ['a bucket configured: not', { loadDemo: 'auto', publishS3: bucket, mailTransport: 'file' }, 'PUBLISH_S3_BUCKET is set: the demo would be published to it'],
    ['Postmark configured: not', { loadDemo: 'auto', publishS3: null, mailTransport: 'postmark' }, 'MAIL_TRANSPORT=postmark: a real deployment'],
    ['asked for, whatever else', { loadDemo: 'yes', publishS3: bucket, mailTransport: 'postmark' }, null],
    ['refused, whatever else', { loadDemo: 'no', publishS3: null, mailTransport: 'file' }, 'LOAD_DEMO=no'],
  ])('%s', (_label, cfg, refusal) => {
    expect(demoRefusal(cfg)).toBe(refusal);
  });
});

// A first-time organizer's review found the demo's clubs public beside its league, unsaid.
describe('demoBeside: the demo organizations an import leaves public beside its own', () => {
  const demo = ['riverside-sfl', 'northgate-ssa', 'amman-yfa'];
  it.each<[string, string[], string[], string[]]>([
    ['the demo loaded, another organization imported', [...demo, 'hillview'], ['hillview'], demo],
    ['one demo organization left', ['amman-yfa', 'hillview'], ['hillview'], ['amman-yfa']],
    ['no demo in the database', ['hillview'], ['hillview'], []],
    // The demo's own file imported again (a test, the demo updated): nothing to say.
    ['the demo imported', demo, ['riverside-sfl'], []],
    // An import of the demo's organization and one's own: the other demo organizations are still beside it.
    ['a demo organization and one of its own', [...demo, 'hillview'], ['riverside-sfl', 'hillview'], ['northgate-ssa', 'amman-yfa']],
  ])('%s', (_label, held, imported, expected) => {
    expect(demoBeside(held, imported, demo)).toEqual(expected);
  });

  it('reads the demo file\'s organizations', () => {
    expect(demoOrganizationIds()).toEqual(expect.arrayContaining(demo));
  });
});
