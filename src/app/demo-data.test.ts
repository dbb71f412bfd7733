import { describe, expect, it } from 'vitest';
import { demoRefusal } from './demo-data.js';

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
