// Before a reference server is used as a floor: does it answer what the real endpoint answers, and write
// what it writes? Each function sends the same request to both and lists every difference (none = a faithful floor).
import Database from 'better-sqlite3';
import { headerDifferences, request, type Answer } from '../http.js';

/** Outbox columns the mail worker changes after the insert, the row's own id, key and time, and its mailbox (derived from the address each side was given). */
export const OUTBOX_STATE = ['id', 'message_key', 'mailbox', 'status', 'attempts', 'next_attempt_at', 'last_error', 'provider_message_id', 'created_at', 'sent_at'];

type Row = Record<string, unknown>;

/**
 * Columns of two rows that differ, once each side's registration id and email are replaced by placeholders, and
 * instants by one (the two requests were not taken at the same millisecond).
 */
function rowDifferences(what: string, a: Row | undefined, b: Row | undefined, ignore: string[], own: [Row, Row]): string[] {
  if (!a || !b) return [`${what}: no row written by ${a ? 'the reference' : 'the real endpoint'}`];
  const normalize = (ids: Row) => (value: unknown) =>
    typeof value === 'string'
      ? value.split(String(ids.id)).join('{id}').split(String(ids.email)).join('{email}').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '{at}')
      : value;
  const na = normalize(own[0]);
  const nb = normalize(own[1]);
  return Object.keys({ ...a, ...b })
    .filter((k) => !ignore.includes(k) && na(a[k]) !== nb(b[k]))
    .map((k) => `${what}.${k} differs`);
}

function bodyOf(answer: Answer): Record<string, unknown> {
  try {
    return JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * POSTs `body` to the real endpoint and to the reference (each with its own email address, `{who}` in the
 * template replaced by "real" or "reference"), then compares status, headers, body and the rows both wrote.
 */
export async function registerDifferences(realBase: string, referenceBase: string, databasePath: string, body: Record<string, string>): Promise<string[]> {
  const send = (base: string, who: string) => {
    const fields = { ...body, email: body.email!.replace('{who}', who) };
    return request(`${base}/api/v0/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
  };
  const real = await send(realBase, 'real');
  const ref = await send(referenceBase, 'reference');
  const out: string[] = [];
  if (real.status !== 201 || ref.status !== 201) out.push(`status: real ${real.status}, reference ${ref.status} (${ref.body.toString('utf8').slice(0, 200)})`);
  out.push(...headerDifferences(real, ref));
  const realBody = bodyOf(real);
  const refBody = bodyOf(ref);
  const shape = (b: Record<string, unknown>) => JSON.stringify({ ...b, id: typeof b.id === 'string' && /^reg_[A-Za-z0-9_-]{16}$/.test(b.id) ? 'reg_…' : b.id });
  if (shape(realBody) !== shape(refBody)) out.push(`body: real ${real.body.toString('utf8')}, reference ${ref.body.toString('utf8')}`);
  if (out.length > 0) return out;

  const db = new Database(databasePath, { readonly: true });
  try {
    const registration = (id: unknown) => db.prepare('SELECT * FROM registrations WHERE id = ?').get(id) as Row | undefined;
    // Every email a registration queued (the organization's notices, the receipt), in the order they were queued.
    const outbox = (id: unknown) =>
      db.prepare(`SELECT * FROM email_outbox WHERE json_extract(data_json, '$.registrationId') = ? ORDER BY id`).all(id) as Row[];
    const realRow = registration(realBody.id);
    const refRow = registration(refBody.id);
    if (!realRow || !refRow) return [...out, ...rowDifferences('registrations', realRow, refRow, [], [{}, {}])];
    const own: [Row, Row] = [realRow, refRow];
    out.push(...rowDifferences('registrations', realRow, refRow, ['created_at'], own));
    const [realMail, refMail] = [outbox(realRow.id), outbox(refRow.id)];
    if (realMail.length !== refMail.length) out.push(`email_outbox: ${realMail.length} rows by the real endpoint, ${refMail.length} by the reference`);
    realMail.forEach((row, i) => out.push(...rowDifferences(`email_outbox[${i}]`, row, refMail[i], OUTBOX_STATE, own)));
    // The answer kept for a repeat of the same body (src/db/idempotency.ts answerKey): its scope and status.
    const kept = (id: unknown) =>
      JSON.stringify(db.prepare(`SELECT scope, response_status FROM idempotency_keys WHERE json_extract(response_body, '$.id') = ?`).all(id));
    if (kept(realRow.id) !== kept(refRow.id)) out.push(`idempotency_keys: real ${kept(realRow.id)}, reference ${kept(refRow.id)}`);
  } finally {
    db.close();
  }
  return out;
}

/** GETs the summary of one match from both: status, headers (ETag and Last-Modified included) and bytes. */
export async function rsvpSummaryDifferences(realBase: string, referenceBase: string, matchId: string): Promise<string[]> {
  const path = `/api/v0/rsvp/${encodeURIComponent(matchId)}`;
  const real = await request(`${realBase}${path}`);
  const ref = await request(`${referenceBase}${path}`);
  const out: string[] = [];
  if (real.status !== 200 || ref.status !== 200) out.push(`status: real ${real.status}, reference ${ref.status}`);
  out.push(...headerDifferences(real, ref));
  if (real.sha1 !== ref.sha1) out.push(`body: real ${real.body.toString('utf8')}, reference ${ref.body.toString('utf8')}`);
  return out;
}
