// A fake Postmark API on 127.0.0.1 (POST /email), for driving the real postmark client in tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_POSTMARK_TOKEN = 'server-token-0000-1111';
const TOKEN = FAKE_POSTMARK_TOKEN;

export type Mode =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; errorCode: number; message: string }
  | { kind: 'hang' }
  /** Answers `status` with `body` as it is (no JSON made of it): a truncated or empty answer. */
  | { kind: 'raw'; status: number; body: string }
  /** Answers `status`, says a body of `body`'s length and more, sends `body`, and cuts the connection. */
  | { kind: 'cut'; status: number; body: string };

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** POST /email as Postmark answers it: token checked, body echoed into a MessageID. */
export class FakePostmark {
  mode: Mode = { kind: 'ok' };
  /** Addresses Postmark has marked inactive (bounced, complained): a message to one is refused, 422 ErrorCode 406. */
  readonly inactive = new Set<string>();
  /** Addresses Postmark finds invalid: a message to one is refused, 422 ErrorCode 300. */
  readonly invalid = new Set<string>();
  received: Received[] = [];
  private server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      this.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method !== 'POST' || req.url !== '/email') return reply(404, { ErrorCode: 0, Message: 'not found' });
      if (req.headers['x-postmark-server-token'] !== TOKEN) {
        return reply(401, { ErrorCode: 10, Message: 'Bad or missing Server API token.' });
      }
      const mode = this.mode;
      if (mode.kind === 'hang') return; // never answers
      if (mode.kind === 'raw') {
        res.writeHead(mode.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(mode.body) });
        return res.end(mode.body);
      }
      if (mode.kind === 'cut') {
        res.writeHead(mode.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(mode.body) + 100 });
        res.write(mode.body, () => res.destroy());
        return;
      }
      if (mode.kind === 'status') return reply(mode.status, { ErrorCode: mode.errorCode, Message: mode.message });
      const inactive = [...this.inactive].filter((a) => String(body.To ?? '').toLowerCase().includes(a.toLowerCase()));
      if (inactive.length > 0) {
        return reply(422, { ErrorCode: 406, Message: `You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ${inactive.join(', ')}.` });
      }
      if ([...this.invalid].some((a) => String(body.To ?? '').toLowerCase().includes(a.toLowerCase()))) {
        return reply(422, { ErrorCode: 300, Message: `Invalid 'To' address: '${String(body.To)}'.` });
      }
      return reply(200, {
        To: body.To,
        SubmittedAt: new Date().toISOString(),
        MessageID: `pm-${this.received.length}`,
        ErrorCode: 0,
        Message: 'OK',
      });
    });
  });

  /** On `port`, or any free one. */
  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
