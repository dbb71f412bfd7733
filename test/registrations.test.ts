// Registrations reach the organization (issue 13), end to end against the running service and its demo data:
// the organization's notice, the export read by real parsers (Python's csv and json), the divisions' window and
// guardian rule, the per-mailbox cap on receipts, and retention by the one-shot command.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCommand } from '../src/mail/templates/registration-notice.js';
import { request } from './support/http.js';
import { drainedEmails, readEmails, waitForEmail } from './support/mail.js';
import { NO_RATE_LIMITS, ROOT, runScript, startServiceWithDb, stopServiceWithDb, type RunningService } from './support/server.js';

let svc: RunningService;
let db: Database.Database;
beforeAll(async () => ({ svc, db } = await startServiceWithDb(NO_RATE_LIMITS)));
afterAll(() => stopServiceWithDb({ svc, db }));

const register = (body: Record<string, unknown>) =>
  request(`${svc.url}/api/v0/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });


function python(program: string, input: string): unknown {
  const r = spawnSync('python3', ['-c', program], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}


const OMAR = {
  org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Omar Haddad', name_ar: 'عمر حداد', email: 'omar.parent@example.org',
  phone: '+962 79 555 0101', date_of_birth: '2015-03-04', guardian_name: 'Lina Haddad', guardian_phone: '+962 79 555 0102',
  notes: 'Left foot, "fast", likes\nthe wing',
};
const FORMULA = {
  org_id: 'amman-yfa', name: '=HYPERLINK("http://evil.example","x")', email: 'formula@example.org', notes: '@SUM(1+1)',
};
// A review: where a spreadsheet splits on semicolons (Excel wherever the decimal mark is a comma), what follows one
// is a cell of its own.
const SEMICOLON = { org_id: 'amman-yfa', name: 'Jo;=1+41', email: 'semicolon@example.org', notes: "Left back; \"=cmd|' /C calc'!A0" };
// A second review: there the quotes are not honoured either, and a line break in the notes started a row of its own.
const NEWLINE = { org_id: 'amman-yfa', name: 'Sam Lee', email: 'newline@example.org', notes: 'Allergic to nuts\n=1+2;\r\n@SUM(1+1);x\n+HYPERLINK("http://evil.example")' };

describe('the organization is told', () => {
  it("sends each registration address a notice in the organization's language, with what it needs and the export command", async () => {
    const res = await register(OMAR);
    expect(res.status).toBe(201);
    const { id } = res.json() as { id: string };
    for (const to of ['tasjeel@amman-yfa.example', 'coaches@amman-yfa.example']) {
      const notice = await waitForEmail(svc.env.MAIL_DIR!, to, (e) => e.text.includes(id));
      expect(notice.subject).toBe('طلب تسجيل جديد: \u2068عمر حداد\u2069، \u2068تحت 12 سنة\u2069');
      for (const line of [
        'اللاعب: \u2068عمر حداد\u2069', 'الاسم كما كُتب في خانة الاسم: \u2068Omar Haddad\u2069', 'الفئة: \u2068تحت 12 سنة\u2069', 'البريد الإلكتروني (كما كُتب، غير موثَّق؛ الرد يصل إليه): \u2068omar.parent@example.org\u2069',
        'الهاتف: \u2068+962 79 555 0101\u2069', 'تاريخ الميلاد: \u20684 آذار 2015\u2069', 'وليّ الأمر: \u2068Lina Haddad\u2069', 'هاتف وليّ الأمر: \u2068+962 79 555 0102\u2069',
        `رقم الطلب: \u2068${id}\u2069`, '(GMT+3)', 'npm run registrations -- --org amman-yfa --since ',
      ]) {
        expect(notice.text).toContain(line);
      }
      expect(notice.html).toContain('<html lang="ar" dir="rtl">');
    }
  });

  it('sends the contact a receipt with no text the submitter chose: organization, division, reference, date', async () => {
    const res = await register({ ...OMAR, email: 'receipt.check@example.org' });
    const { id } = res.json() as { id: string };
    const receipt = await waitForEmail(svc.env.MAIL_DIR!, 'receipt.check@example.org');
    expect(receipt.text).toContain(`رقم الطلب: \u2068${id}\u2069`);
    expect(receipt.text).toContain('الفئة: \u2068تحت 12 سنة\u2069');
    expect(receipt.text).toMatch(/التاريخ: .+ \(GMT\+3\)/);
    for (const submitted of [OMAR.name, OMAR.name_ar, OMAR.guardian_name, OMAR.phone, 'Left foot']) {
      expect(`${receipt.subject}\n${receipt.text}\n${receipt.html}`).not.toContain(submitted);
    }
  });

  // A first-time organizer's review: an English club's Arabic-speaking families got English only. The form says the
  // language; the parent's receipt follows it, the organization's notice stays in the organization's.
  it.each([
    { org: 'riverside-sfl', division: 'rsl-reg-veterans', language: 'ar', receipt: 'رقم الطلب: ', notice: 'New registration: ', to: 'registrations@riverside-sfl.example' },
    { org: 'amman-yfa', division: 'amm-reg-u12', language: 'EN', receipt: 'Reference: ', notice: 'طلب تسجيل جديد: ', to: 'tasjeel@amman-yfa.example' },
  ])('a receipt in the language the form asks for ($language), the notice in $org\'s', async ({ org, division, language, receipt, notice, to }) => {
    const email = `receipt.${org}.${language.toLowerCase()}@example.org`;
    const res = await register({ org_id: org, division_id: division, name: 'Yusuf Language', email, date_of_birth: '1980-03-04', language });
    expect(res.status).toBe(201);
    const sent = await waitForEmail(svc.env.MAIL_DIR!, email);
    // The reference after its label, isolated in the Arabic.
    expect(sent.text).toMatch(new RegExp(`${receipt}\u2068?${(res.json() as { id: string }).id}`));
    const told = await waitForEmail(svc.env.MAIL_DIR!, to, (e) => e.headers['reply-to'] === email);
    expect(told.subject.startsWith(notice)).toBe(true);
  });

  it('refuses a language the service does not write, naming the field', async () => {
    const res = await register({ ...OMAR, email: 'receipt.fr@example.org', language: 'fr' });
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'language', message: 'must be "en" (English) or "ar" (Arabic)' }]);
  });

  // A parent's receipt told them to keep the reference "if you write to them" and named no address, and a reply went
  // to MAIL_FROM's no-reply mailbox. The organization's contact_email (the demo's Amman association has one) is read
  // as the receipt leaves: one removed since is neither named nor replied to.
  it("names the organization's contact address in the receipt, and replies go to it", async () => {
    await register({ ...OMAR, email: 'receipt.contact@example.org' });
    const receipt = await waitForEmail(svc.env.MAIL_DIR!, 'receipt.contact@example.org');
    expect(receipt.headers['reply-to']).toBe('info@amman-yfa.example');
    expect(receipt.text).toContain('يُرجى الرد على هذه الرسالة أو الكتابة إلى \u2068info@amman-yfa.example\u2069، مع ذكر رقم الطلب.');
    // The notices still answer the family, not the contact.
    const notice = await waitForEmail(svc.env.MAIL_DIR!, 'tasjeel@amman-yfa.example', (e) => e.headers['reply-to'] === 'receipt.contact@example.org');
    expect(notice.text).not.toContain('info@amman-yfa.example');

    db.prepare(`UPDATE organizations SET contact_email = NULL WHERE id = 'amman-yfa'`).run();
    try {
      await register({ ...OMAR, email: 'receipt.nocontact@example.org' });
      const without = await waitForEmail(svc.env.MAIL_DIR!, 'receipt.nocontact@example.org');
      expect(without.headers['reply-to']).toBeUndefined();
      expect(without.text).toContain('يُرجى الاحتفاظ برقم الطلب لذكره عند مراسلتهم.');
      expect(without.text).not.toContain('info@amman-yfa.example');
    } finally {
      db.prepare(`UPDATE organizations SET contact_email = 'info@amman-yfa.example' WHERE id = 'amman-yfa'`).run();
    }
  });
});

describe('the organization reads its registrations', () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = [];
    for (const body of [OMAR, FORMULA, SEMICOLON, NEWLINE]) ids.push(((await register(body)).json() as { id: string }).id);
    expect((await register({ org_id: 'riverside-sfl', name: 'Not Amman', email: 'other.org@example.org' })).status).toBe(201);
  });

  it('as CSV (RFC 4180, UTF-8, formulas neutralised) that Python reads back intact, and nothing of another organization', async () => {
    const out = await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--format', 'csv']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout.split('\r\n')[0]).toBe('\ufeffid,created_at,division_id,division_name,name,name_ar,email,phone,date_of_birth,guardian_name,guardian_phone,notes,division_name_ar,same_player_as');
    expect(out.stdout.endsWith('\r\n')).toBe(true);
    const rows = python(
      'import csv,io,json,sys; print(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.buffer.read().decode("utf-8-sig"), newline="")))))',
      out.stdout,
    ) as Record<string, string>[];
    const omar = rows.find((r) => r.id === ids[0])!;
    expect(omar).toMatchObject({
      name: 'Omar Haddad', name_ar: 'عمر حداد', division_id: 'amm-reg-u12', division_name: 'تحت 12 سنة', division_name_ar: 'تحت 12 سنة', email: OMAR.email,
      phone: `'${OMAR.phone}`, date_of_birth: '2015-03-04', guardian_name: 'Lina Haddad', notes: OMAR.notes,
    });
    const formula = rows.find((r) => r.id === ids[1])!;
    expect(formula.name).toBe(`'${FORMULA.name}`);
    expect(formula.notes).toBe(`'${FORMULA.notes}`);
    for (const r of rows) for (const v of Object.values(r)) expect(v).not.toMatch(/^[=+\-@\t\r]/);
    // Split on semicolons instead, as such a spreadsheet does: no cell starts a formula either (spaces and quotes
    // skipped, as Excel does).
    const cells = python(
      'import csv,io,json,sys; print(json.dumps([c for row in csv.reader(io.StringIO(sys.stdin.buffer.read().decode("utf-8-sig"), newline=""), delimiter=";") for c in row]))',
      out.stdout,
    ) as string[];
    expect(cells.some((c) => c.includes('=1+41'))).toBe(true);
    expect(cells.some((c) => c.includes('=1+2'))).toBe(true);
    for (const c of cells) expect(c.replace(/^[\s"]+/, '')).not.toMatch(/^[=+\-@]/);
    expect(rows.find((r) => r.id === ids[2])).toMatchObject({ name: "Jo;'=1+41", notes: "Left back; \"'=cmd|' /C calc'!A0" });
    expect(rows.map((r) => r.name)).not.toContain('Not Amman');
    expect(out.stdout).not.toContain('other.org@example.org');
  });

  // A review saved the command the notice gives with `> regs.csv`: npm's banner came before the byte-order mark, and
  // the spreadsheet read the Arabic as mojibake. The notice's command names its file; run here through npm, as typed.
  it("the notice's command, through npm run, writes a file of its own that spreadsheets read, readable by its owner only", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'export-'));
    const args = exportCommand('amman-yfa', '2000-01-01').replace(/^npm run registrations -- /, '').split(' ');
    // Typed in `folder` (npm says so in INIT_CWD): the file is there, not in the service's folder.
    const npm = (npmArgs: string[]) => spawnSync('npm', ['--prefix', ROOT, ...npmArgs], { cwd: folder, encoding: 'utf8', env: { ...process.env, ...svc.env, ENV_FILE: 'none' } });
    const run = npm(['run', 'registrations', '--', ...args]);
    expect(run.status, run.stderr).toBe(0);
    const file = path.join(folder, 'registrations-amman-yfa-2000-01-01.csv');
    const bytes = fs.readFileSync(file, 'utf8');
    expect(bytes.startsWith('\ufeffid,created_at,')).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const rows = python('import csv,io,json,sys; print(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.buffer.read().decode("utf-8-sig"), newline="")))))', bytes) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(ids));
    expect(run.stdout).toContain(`${rows.length} registrations of amman-yfa written to ${file}\n`);
    // A folder that is not there: one line, nothing written.
    const missing = npm(['run', '--silent', 'registrations', '--', '--org', 'amman-yfa', '--output', 'no/such/x.csv']);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe(`--output ${path.join(folder, 'no/such/x.csv')}: ENOENT: nothing written`);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('as JSON, and only since a day', async () => {
    const all = await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--format', 'json']);
    expect(all.status, all.stderr).toBe(0);
    const parsed = python('import json,sys; print(json.dumps(json.load(sys.stdin)))', all.stdout) as {
      organization: string; registrations: Record<string, string | null>[];
    };
    expect(parsed.organization).toBe('amman-yfa');
    expect(parsed.registrations.find((r) => r.id === ids[1])).toMatchObject({ name: FORMULA.name, division_id: null, notes: '@SUM(1+1)' });
    expect(parsed.registrations.every((r) => r.email !== 'other.org@example.org')).toBe(true);
    const later = await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--format', 'json', '--since', '2999-01-01']);
    expect(JSON.parse(later.stdout).registrations).toEqual([]);
  });

  it('refuses an unknown organization, a bad format and a bad date with one line and exit 1', async () => {
    for (const [args, message] of [
      [['--org', 'nobody'], 'no organization has the id "nobody"'],
      [['--org', 'amman-yfa', '--format', 'xlsx'], '--format must be csv or json'],
      [['--org', 'amman-yfa', '--since', '2026-02-30'], '--since must be'],
      // parseArgs kept the last: a review exported riverside-sfl's registrations alone, exit 0.
      [['--org', 'amman-yfa', '--org', 'riverside-sfl'], '--org is given twice: give it once'],
      [[], 'usage: npm run registrations'],
    ] as const) {
      const out = await runScript(svc, 'registrations.ts', [...args]);
      expect(out.status).toBe(1);
      expect(out.stderr).toContain(message);
      expect(out.stdout).toBe('');
    }
  });
});

// A registrations review: a child registered twice could not be removed but by erasing the parent's address, the
// good registration with it. The export names the repeat; --remove takes it, its emails and stored answer with it.
describe('a repeat, told in its notice', () => {
  // A registrations review's secretary found three registrations of one child in the export, weeks later: the notice
  // of a repeat names the registration it repeats, as the export's same_player_as does; the first notice and the
  // receipts say nothing of it (the form tells no stranger who is registered).
  it('names the earlier registration and what the two share; the first notice, and another name, say nothing', async () => {
    const body = { org_id: 'riverside-sfl', name: 'Repeat Player', email: 'repeat.parent@example.org', date_of_birth: '2015-02-03' };
    const first = ((await register(body)).json() as { id: string }).id;
    const sameDay = ((await register({ ...body, name: 'repeat  PLAYER', email: 'other.parent@example.org' })).json() as { id: string }).id;
    const undated = ((await register({ ...body, date_of_birth: undefined, email: 'Repeat.Parent@example.org', phone: '0161 000 0000' })).json() as { id: string }).id;
    const sibling = ((await register({ ...body, name: 'Repeat Sister' })).json() as { id: string }).id;
    const noticeOf = (id: string) => waitForEmail(svc.env.MAIL_DIR!, 'registrations@riverside-sfl.example', (e) => e.text.includes(`Reference: ${id}`));
    expect((await noticeOf(first)).text).not.toContain('same player');
    expect((await noticeOf(sibling)).text).not.toContain('same player');
    const byBirthday = await noticeOf(sameDay);
    expect(byBirthday.text).toContain(`This may be the same player as registration ${first}, received on `);
    expect(byBirthday.text).toContain(': the same name and date of birth.');
    expect((await noticeOf(undated)).text).toContain(`same player as registration ${first}, received on `);
    expect((await noticeOf(undated)).text).toContain(': the same name and email address.');
    const receipts = (await readEmails(svc.env.MAIL_DIR!)).filter((e) => e.to.includes('parent@example.org') || e.to.includes('Parent@example.org'));
    expect(receipts.length).toBeGreaterThan(0);
    for (const receipt of receipts) expect(receipt.text).not.toContain('same player');
    // What the export says too.
    const exported = JSON.parse((await runScript(svc, 'registrations.ts', ['--org', 'riverside-sfl', '--format', 'json'])).stdout).registrations as Array<Record<string, string | null>>;
    expect(exported.filter((r) => [first, sameDay, undated, sibling].includes(r.id!)).map((r) => [r.id, r.same_player_as]))
      .toEqual([[first, null], [sameDay, first], [undated, first], [sibling, null]]);
  });

  // An organization never learns of another's registrations: the same child registered with Amman's academy first is
  // no repeat of anything to the Riverside league, in its notice or its export.
  it("never names another organization's registration of the same player", async () => {
    const body = { name: 'Cross Club Player', email: 'cross.parent@example.org', date_of_birth: '2014-06-07' };
    const elsewhere = ((await register({ ...body, org_id: 'amman-yfa' })).json() as { id: string }).id;
    const here = ((await register({ ...body, org_id: 'riverside-sfl' })).json() as { id: string }).id;
    const notice = await waitForEmail(svc.env.MAIL_DIR!, 'registrations@riverside-sfl.example', (e) => e.text.includes(`Reference: ${here}`));
    expect(notice.text).not.toContain('same player');
    expect(notice.text).not.toContain(elsewhere);
    const exported = JSON.parse((await runScript(svc, 'registrations.ts', ['--org', 'riverside-sfl', '--format', 'json'])).stdout).registrations as Array<Record<string, string | null>>;
    expect(exported.find((r) => r.id === here)?.same_player_as).toBeNull();
  });
});

describe('a registration removed by id', () => {
  it('names the repeat, removes it with its emails, and refuses an id the organization does not hold', async () => {
    const body = { org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Twice Registered', email: 'twice@example.org', date_of_birth: '2015-02-03' };
    const first = ((await register(body)).json() as { id: string }).id;
    const again = ((await register({ ...body, name: 'twice  registered', notes: 'forgot: asthma' })).json() as { id: string }).id;
    const other = ((await register({ org_id: 'riverside-sfl', name: 'Other Org', email: 'twice@example.org' })).json() as { id: string }).id;
    const exported = async () => (JSON.parse((await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--format', 'json'])).stdout).registrations as Array<Record<string, string | null>>)
      .filter((r) => r.email === body.email).map((r) => [r.id, r.same_player_as]);
    expect(await exported()).toEqual([[first, null], [again, first]]);
    const emailsOf = (id: string) => db.prepare(`SELECT count(*) FROM email_outbox WHERE json_extract(data_json, '$.registrationId') = ?`).pluck().get(id);
    expect(emailsOf(again)).toBeGreaterThan(0);
    // Its notice written as a file (the file transport): removed with it.
    const filesAbout = async (id: string) => (await readEmails(svc.env.MAIL_DIR!)).filter((e) => e.text.includes(id)).map((e) => e.file);
    await drainedEmails(db, svc.env.MAIL_DIR!);
    expect((await filesAbout(again)).length).toBeGreaterThan(0);
    // Another organization's registration, or one not held: nothing removed, one line, exit 1.
    const refused = await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--remove', again, '--remove', other]);
    expect([refused.status, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toContain(`nothing removed: amman-yfa has no registration "${other}"`);
    // An export's options beside --remove: refused, not ignored.
    const mixed = await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--remove', again, '--format', 'json']);
    expect([mixed.status, mixed.stdout]).toEqual([1, '']);
    expect(mixed.stderr).toContain('--remove takes no --since, --output or --format');
    expect(await exported()).toEqual([[first, null], [again, first]]);
    const removed = await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--remove', again]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(new RegExp(`^1 registration of amman-yfa removed \\(${again}\\), and what the \\d+ emails? about it in the outbox said \\(none of those waiting is sent; each still counts against its mailbox's daily limit until the retention job deletes it\\), with their \\d+ \\.eml files?\\n$`));
    expect(await exported()).toEqual([[first, null]]);
    expect(emailsOf(again)).toBe(0);
    expect(emailsOf(first)).toBeGreaterThan(0);
    expect(await filesAbout(again)).toEqual([]);
    expect((await filesAbout(first)).length).toBeGreaterThan(0);
    // The form posted again within its hour is answered as the first time: the repeat is not taken again.
    const replay = await register({ ...body, name: 'twice  registered', notes: 'forgot: asthma' });
    expect([replay.status, replay.json().id]).toEqual([201, again]);
    expect(await exported()).toEqual([[first, null]]);
  });

  // An attacker's review: the daily limits count outbox rows, and removing a stranger's junk registrations deleted
  // them, so the same mailbox got its day's receipts again; and a registration older than its emails' 30 days (the
  // retention job deletes them, a registration is kept a year) left its notice's file, the child's details in it.
  it('keeps its emails counted, emptied, and finds its files by its id once their rows are gone', async () => {
    const body = { org_id: 'riverside-sfl', name: 'Junk Entry', email: 'cap.victim@example.org' };
    const receipts = () => db.prepare(`SELECT count(*) FROM email_outbox WHERE to_address = 'cap.victim@example.org' AND tag = 'registration-receipt'`).pluck().get() as number;
    const junk: string[] = [];
    for (let i = 0; i < 3; i++) junk.push(((await register({ ...body, name: `Junk Entry ${i}` })).json() as { id: string }).id);
    expect(receipts()).toBe(3);
    const removed = await runScript(svc, 'registrations.ts', ['--org', 'riverside-sfl', ...junk.flatMap((id) => ['--remove', id])]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(receipts()).toBe(3);
    expect(db.prepare(`SELECT DISTINCT data_json FROM email_outbox WHERE to_address = 'cap.victim@example.org'`).pluck().all()).toEqual(['{}']);
    await register({ ...body, name: 'Junk Entry 4' });
    expect(receipts()).toBe(3);
    // And after the hourly retention job: the emptied rows are no orphans to delete, but finished emails of 30 days.
    expect((await runScript(svc, 'retention.ts', [])).status).toBe(0);
    expect(receipts()).toBe(3);
    // Written to files, then its rows gone as the retention job leaves them (a month later): found by its id.
    const old = ((await register({ org_id: 'amman-yfa', name: 'Month Old', email: 'month.old@example.org', date_of_birth: '2015-06-07' })).json() as { id: string }).id;
    await drainedEmails(db, svc.env.MAIL_DIR!);
    const filesAbout = async () => (await readEmails(svc.env.MAIL_DIR!)).filter((e) => e.text.includes(old)).map((e) => e.file);
    // Its two notices (Arabic: base64) and its receipt.
    expect((await filesAbout()).length).toBe(3);
    db.prepare(`DELETE FROM email_outbox WHERE json_extract(data_json, '$.registrationId') = ?`).run(old);
    const gone = await runScript(svc, 'registrations.ts', ['--org', 'amman-yfa', '--remove', old]);
    expect(gone.status, gone.stderr).toBe(0);
    expect(gone.stdout).toContain('with their 3 .eml files');
    expect(await filesAbout()).toEqual([]);
  });

  // A diff review: a later registration's notice names the earlier one it may repeat, and removing the earlier one
  // took that notice's file too, though its own registration stays.
  it('leaves the file of a later notice that names it as the registration it may repeat', async () => {
    const body = { org_id: 'riverside-sfl', name: 'Kept Repeat', email: 'kept.repeat@example.org', date_of_birth: '2014-04-04' };
    const first = ((await register(body)).json() as { id: string }).id;
    const second = ((await register({ ...body, email: 'other.kept@example.org' })).json() as { id: string }).id;
    await drainedEmails(db, svc.env.MAIL_DIR!);
    const notices = async () => (await readEmails(svc.env.MAIL_DIR!)).filter((e) => e.to === 'registrations@riverside-sfl.example' && e.text.includes(first));
    expect((await notices()).map((e) => e.text.includes(`Reference: ${second}`)).sort()).toEqual([false, true]);
    const removed = await runScript(svc, 'registrations.ts', ['--org', 'riverside-sfl', '--remove', first]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('with their 2 .eml files');
    const left = await notices();
    expect(left).toHaveLength(1);
    expect(left[0]!.text).toContain(`Reference: ${second}`);
  });
});

describe('divisions say when and whom they take', () => {
  it('answers 422 naming division_id outside the window, and writes nothing', async () => {
    const before = db.prepare(`SELECT count(*) AS n FROM registrations`).get();
    const res = await register({ org_id: 'northgate-ssa', division_id: 'nssa-reg-u14-girls', name: 'Late Player', email: 'late@example.org' });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual([{ field: 'division_id', message: 'stopped taking registrations on Wednesday 1 October 2025, 00:00 BST' }]);
    expect(db.prepare(`SELECT count(*) AS n FROM registrations`).get()).toEqual(before);
  });

  it('answers 422 naming the guardian fields for a minor without them, and date_of_birth when it is missing', async () => {
    const minor = { org_id: 'amman-yfa', division_id: 'amm-reg-u14', name: 'Young Player', email: 'young@example.org', date_of_birth: '2013-01-01' };
    const res = await register(minor);
    expect(res.status).toBe(422);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['guardian_name', 'guardian_phone']);
    const noBirth = await register({ ...minor, date_of_birth: undefined });
    expect(noBirth.json().errors.map((e: { field: string }) => e.field)).toEqual(['date_of_birth']);
    const ok = await register({ ...minor, guardian_name: 'A Parent', guardian_phone: '+962 79 000 0000' });
    expect(ok.status).toBe(201);
  });
});

// Found by a review: a parent without script on an Arabic club's U14 form met the problems one round at a time (the
// email, then "date of birth is required", then the guardian fields). One 422 now names them all.
describe('every problem in one answer', () => {
  const LINA = { org_id: 'amman-yfa', division_id: 'amm-reg-u14', name: 'Lina', email: 'lina2@', date_of_birth: '2014-05-01' };
  const fieldsOf = (res: { json(): { errors: Array<{ field: string }> } }) => res.json().errors.map((e) => e.field);

  it("a field the schema refuses, and the division's guardian rule", async () => {
    const res = await register(LINA);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual([
      { field: 'email', message: expect.any(String) },
      { field: 'guardian_name', message: 'is required for a player under 18' },
      { field: 'guardian_phone', message: 'is required for a player under 18' },
    ]);
  });

  it('the same from an HTML form, in Arabic digits', async () => {
    const res = await request(`${svc.url}/api/v0/register`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...LINA, date_of_birth: '٢٠١٤-٠٥-٠١' }).toString(),
    });
    expect(fieldsOf(res)).toEqual(['email', 'guardian_name', 'guardian_phone']);
  });

  it('a field the schema refuses is named once, and a rule that needs it waits for it', async () => {
    // A date of birth it cannot read: no age, so no guardian asked for yet, and not "date_of_birth is required".
    expect(fieldsOf(await register({ ...LINA, date_of_birth: '01/05/2014' }))).toEqual(['email', 'date_of_birth']);
    // A guardian phone it cannot read: the name is still asked for, the phone named once.
    expect(fieldsOf(await register({ ...LINA, guardian_phone: 'call me' }))).toEqual(['email', 'guardian_phone', 'guardian_name']);
    // Without a date of birth: the division asks for one beside the email.
    expect(fieldsOf(await register({ ...LINA, date_of_birth: undefined }))).toEqual(['email', 'date_of_birth']);
  });

  it('a window closed and a guardian missing, with every field well-formed: both', async () => {
    db.prepare(`UPDATE divisions SET closes_at = '2025-01-01T00:00:00Z' WHERE id = 'amm-reg-u14'`).run();
    try {
      expect(fieldsOf(await register({ ...LINA, email: 'lina2@example.org' }))).toEqual(['division_id', 'guardian_name', 'guardian_phone']);
      expect(fieldsOf(await register(LINA))).toEqual(['email', 'division_id', 'guardian_name', 'guardian_phone']);
    } finally {
      db.prepare(`UPDATE divisions SET closes_at = NULL WHERE id = 'amm-reg-u14'`).run();
    }
  });

  it('an organization or division it cannot find is said beside the refused fields; one it cannot read, only its own error', async () => {
    expect(fieldsOf(await register({ ...LINA, division_id: 'nowhere' }))).toEqual(['email', 'division_id']);
    expect(fieldsOf(await register({ ...LINA, org_id: 'nobody' }))).toEqual(['email', 'org_id']);
    expect(fieldsOf(await register({ ...LINA, org_id: 'not an id!' }))).toEqual(['org_id', 'email']);
  });
});

describe('the receipt cannot be turned against a stranger', () => {
  it('six registrations with one contact address: six 201s, at most three receipts, none with submitted text', async () => {
    const victim = 'victim.inbox@example.org';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await register({ org_id: 'riverside-sfl', name: `Spam Text ${i} visit evil.example`, email: i % 2 ? victim : 'Victim.Inbox+x@example.org', notes: 'buy now' })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201]);
    expect((db.prepare(`SELECT count(*) AS n FROM registrations WHERE name LIKE 'Spam Text %'`).get() as { n: number }).n).toBe(6);
    const emails = await drainedEmails(db, svc.env.MAIL_DIR!);
    const receipts = emails.filter((e) => /victim\.inbox(\+x)?@example\.org/i.test(e.to));
    expect(receipts.length).toBe(3);
    for (const r of receipts) expect(`${r.subject}${r.text}${r.html}`).not.toMatch(/Spam Text|evil\.example|buy now/);
    // The organization still hears of all six.
    expect(emails.filter((e) => e.to === 'registrations@riverside-sfl.example' && e.text.includes('Spam Text')).length).toBe(6);
  });
});

describe('retention', () => {
  it('deletes registrations older than their organization keeps, and their emails, and nothing newer, leaving no bytes behind', async () => {
    await drainedEmails(db, svc.env.MAIL_DIR!);
    const make = async (body: Record<string, unknown>, daysAgo: number) => {
      const { id } = (await register(body)).json() as { id: string };
      const at = new Date(Date.now() - daysAgo * 24 * 3600_000).toISOString();
      db.prepare(`UPDATE registrations SET created_at = ? WHERE id = ?`).run(at, id);
      return id;
    };
    // amman-yfa keeps 365 days (the default), northgate-ssa 180.
    const oldAmman = await make({ org_id: 'amman-yfa', name: 'Forgotten Qadri Zzyzx', email: 'old.amman@example.org' }, 366);
    const keptAmman = await make({ org_id: 'amman-yfa', name: 'Kept Amman', email: 'kept.amman@example.org' }, 364);
    const oldNorthgate = await make({ org_id: 'northgate-ssa', name: 'Forgotten Northgate', email: 'old.ng@example.org' }, 181);
    const keptNorthgate = await make({ org_id: 'northgate-ssa', name: 'Kept Northgate', email: 'kept.ng@example.org' }, 179);
    await drainedEmails(db, svc.env.MAIL_DIR!);
    const out = await runScript(svc, 'retention.ts', []);
    expect(out.status, out.stderr).toBe(0);
    // Each organization named with its count: the operator tells each that its export no longer has them.
    expect(out.stdout).toMatch(/^retention: 2 registrations \(amman-yfa 1, northgate-ssa 1\), \d+ emails/);
    const left = (db.prepare(`SELECT id FROM registrations`).all() as { id: string }[]).map((r) => r.id);
    expect(left).toEqual(expect.arrayContaining([keptAmman, keptNorthgate]));
    expect(left).not.toContain(oldAmman);
    expect(left).not.toContain(oldNorthgate);
    const outbox = JSON.stringify(db.prepare(`SELECT data_json FROM email_outbox`).all());
    expect(outbox).not.toContain(oldAmman);
    expect(outbox).toContain(keptAmman);
    // secure_delete zeroed the freed pages and the command folded the WAL: the name is in neither file.
    const files = [svc.env.DATABASE_PATH!, `${svc.env.DATABASE_PATH}-wal`].filter((f) => fs.existsSync(f));
    const bytes = Buffer.concat(files.map((f) => fs.readFileSync(f)));
    expect(bytes.includes(Buffer.from('Forgotten Qadri Zzyzx'))).toBe(false);
    expect(bytes.includes(Buffer.from('Kept Amman'))).toBe(true);
  });
});
