import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDb, type TestDb } from '../../test/support/db.js';
import { SyncDb } from '../db/sync.js';
import { InvalidFieldsError } from '../errors.js';
import { followRequestSchema } from '../follows/schema.js';
import { requestFollow } from '../follows/service.js';
import { registrationProblems } from '../registrations/rules.js';
import { registrationRequestSchema } from '../registrations/schema.js';
import { problemsBesideRefused } from '../registrations/service.js';
import { fieldMessage } from './field-messages.js';

const LRI = '\u2066';
const PDI = '\u2069';

describe('fieldMessage: the API\'s English message on an Arabic organization\'s page', () => {
  it.each([
    ['is required', 'مطلوب'],
    ['must be at most 120 characters', 'يجب ألا يزيد على 120 حرفًا'],
    ['must be at most 2000 characters', 'يجب ألا يزيد على 2000 حرف'],
    ['must be at most 5 characters', 'يجب ألا يزيد على 5 أحرف'],
    ['must be an email address such as name@example.org', `يجب أن يكون عنوان بريد إلكتروني مثل ${LRI}name@example.org${PDI}`],
    ['must be an email address: at most 64 characters before the @', 'يجب أن يكون عنوان بريد إلكتروني: 64 حرفًا على الأكثر قبل @'],
    ['is not a real date', 'ليس تاريخًا صحيحًا'],
    ['must be between 1900-01-01 and today', `يجب أن يكون بين ${LRI}1900-01-01${PDI} واليوم`],
    ['is required for a player under 18', 'مطلوب للاعب دون سن 18'],
    ['is required: players under 14 need a guardian', 'مطلوب: من هم دون سن 14 يحتاجون إلى ولي أمر'],
    ["is required: choose one of the organization's divisions", 'مطلوب: يُرجى اختيار إحدى فئات الجهة المنظمة'],
    ['must be from 2015-01-01 to 2015-12-31 for this division', `يجب أن يكون بين ${LRI}2015-01-01${PDI} و${LRI}2015-12-31${PDI} لهذه الفئة`],
    ['must be on or after 2014-09-01 for this division', `يجب أن يكون في ${LRI}2014-09-01${PDI} أو بعده لهذه الفئة`],
    ['must be on or before 2010-12-31 for this division', `يجب أن يكون في ${LRI}2010-12-31${PDI} أو قبله لهذه الفئة`],
    ['is required: the division takes players born on or after 2014-09-01', `مطلوب: تقبل هذه الفئة اللاعبين المولودين في ${LRI}2014-09-01${PDI} أو بعده`],
    ['is required: the division takes players born from 2015-01-01 to 2015-12-31', `مطلوب: تقبل هذه الفئة اللاعبين المولودين بين ${LRI}2015-01-01${PDI} و${LRI}2015-12-31${PDI}`],
    // The organization's clock, in Arabic words, as the emails write it; "يوم" before the weekday ("في الأربعاء" is not
    // Arabic: a native Arabic review).
    ['takes registrations from Thursday 1 January 2026, 00:00 GMT+3', 'تستقبل التسجيلات ابتداءً من يوم الخميس 1 يناير 2026، الساعة 00:00 (GMT+3)'],
    ['stopped taking registrations on Wednesday 1 October 2025, 02:00 GMT+3', 'توقفت عن استقبال التسجيلات يوم الأربعاء 1 أكتوبر 2025، الساعة 02:00 (GMT+3)'],
    ['no organization has this id', 'لا توجد جهة منظمة بهذا المعرّف'],
  ])('%s', (english, arabic) => {
    expect(fieldMessage(english, 'ar')).toEqual({ text: arabic, language: 'ar' });
  });

  // A review: English names Cairo's summer "EEST", and the Arabic page copied it; Arabic readers read the offset.
  it('a time read back in the organization\'s zone names the zone as Arabic readers do', () => {
    expect(fieldMessage('stopped taking registrations on Saturday 4 July 2026, 17:00 EEST', 'ar', 'Africa/Cairo'))
      .toEqual({ text: 'توقفت عن استقبال التسجيلات يوم السبت 4 يوليو 2026، الساعة 17:00 (GMT+3)', language: 'ar' });
    expect(fieldMessage('takes registrations from Saturday 4 July 2026, 15:00 BST', 'ar', 'Europe/London').text)
      .toBe('تستقبل التسجيلات ابتداءً من يوم السبت 4 يوليو 2026، الساعة 15:00 (GMT+1)');
  });

  it('an English page keeps the message; one with no Arabic yet stays English, said to be', () => {
    expect(fieldMessage('is required', 'en')).toEqual({ text: 'is required', language: 'en' });
    expect(fieldMessage('must be something new', 'ar')).toEqual({ text: 'must be something new', language: 'en' });
    // Whole messages only: a known message inside a longer one is not half translated.
    expect(fieldMessage('is required, twice', 'ar').language).toBe('en');
  });
});

// Every message a form's answer can carry, produced by the real schemas and rules from every kind of bad answer: each
// has its Arabic. A new message (a rule, a schema's wording) fails here until field-messages.ts says it.
describe('every message the schemas and rules give has its Arabic', () => {
  let t: TestDb;
  beforeAll(async () => { t = await demoDb(); });
  afterAll(() => t.close());

  const long = (n: number) => 'a'.repeat(n + 1);
  const texts = ['', '   ', long(120), 'a\u0007b', 'a\nb', 'a\u202Eb', 'a\u200Bb', '\u200F', '\uD800'];
  const emails = ['', 'nope', 'a..b@example.org', `${'a'.repeat(65)}@example.org`, 'a@b', 'a@-x.org', `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.org`, long(254)];
  const phones = ['abc', '12', '+1 (555) 0100'];
  const days = ['2014-5-1', '2014-02-30', '1899-12-31', '2999-01-01', 'tomorrow'];
  const ids = ['', 'Not an id!', long(64)];
  const base = { org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Omar', email: 'omar@example.org', date_of_birth: '2014-05-06' };

  function messages(): string[] {
    const found: string[] = [];
    const issues = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) => found.push(...(r.error?.issues.map((i) => i.message) ?? []));
    for (const value of texts) {
      for (const field of ['name', 'name_ar', 'guardian_name', 'notes']) issues(registrationRequestSchema.safeParse({ ...base, [field]: value }));
    }
    issues(registrationRequestSchema.safeParse({ ...base, notes: long(2000) }));
    issues(registrationRequestSchema.safeParse({ ...base, name: 7 }));
    for (const email of emails) {
      issues(registrationRequestSchema.safeParse({ ...base, email }));
      issues(followRequestSchema.safeParse({ org_id: 'amman-yfa', email }));
    }
    for (const phone of phones) issues(registrationRequestSchema.safeParse({ ...base, phone, guardian_phone: phone }));
    for (const date_of_birth of days) issues(registrationRequestSchema.safeParse({ ...base, date_of_birth }));
    for (const language of ['fr', 'english', 7]) issues(registrationRequestSchema.safeParse({ ...base, language }));
    for (const id of ids) {
      issues(registrationRequestSchema.safeParse({ ...base, org_id: id, division_id: id }));
      issues(followRequestSchema.safeParse({ org_id: id, league_id: id, email: 'a@example.org' }));
    }
    // The rules: the range of a date of birth, the window, the guardian.
    const now = new Date('2026-11-26T12:00:00Z');
    const rules = [
      registrationProblems({ date_of_birth: '2999-01-01' }, null, now, 'Asia/Amman'),
      registrationProblems({}, { opens_at: '2027-01-01T00:00:00Z', closes_at: null, guardian_required_under: 18, born_from: null, born_until: null }, now, 'Asia/Amman'),
      registrationProblems({ date_of_birth: '2014-05-06' }, { opens_at: null, closes_at: '2026-01-01T00:00:00Z', guardian_required_under: 18, born_from: null, born_until: null }, now, 'Asia/Amman'),
      // The days a division's players are born between: each bound alone and both, the date of birth missing or outside.
      ...[['2015-01-01', null], [null, '2010-12-31'], ['2015-01-01', '2015-12-31']].flatMap(([born_from, born_until]) =>
        [{}, { date_of_birth: '2012-05-06' }].map((facts) =>
          registrationProblems(facts, { opens_at: null, closes_at: null, guardian_required_under: null, born_from: born_from!, born_until: born_until! }, now, 'Asia/Amman'))),
    ];
    found.push(...rules.flat().map((p) => p.message));
    // The organization and division, read from a real database.
    const store = new SyncDb(t.sqlite);
    for (const fields of [{ ...base, org_id: 'nobody' }, { ...base, division_id: 'rsl-reg-premier' }, { ...base, division_id: 'amm-reg-u14', date_of_birth: '2014-05-06' }, { ...base, division_id: '' }]) {
      found.push(...problemsBesideRefused(store, { ...fields, email: 'nope' }, now).map((p) => p.message));
    }
    // The follow service's (a review found its league's message left in English).
    for (const input of [{ org_id: 'nobody', email: 'a@example.org' }, { org_id: 'amman-yfa', league_id: 'nope', email: 'a@example.org' }]) {
      try {
        requestFollow(store, input, { now, emailsPerDay: 0 });
      } catch (error) {
        if (!(error instanceof InvalidFieldsError)) throw error;
        found.push(...error.errors.map((e) => e.message));
      }
    }
    return [...new Set(found)];
  }

  it('each in Arabic, none left in English', () => {
    const all = messages();
    // The corpus reaches every kind of message, not a few of them.
    expect(all.length).toBeGreaterThanOrEqual(26);
    expect(all.filter((m) => fieldMessage(m, 'ar').language !== 'ar')).toEqual([]);
  });
});
