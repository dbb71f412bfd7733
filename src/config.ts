// The only reader of process.env (and of .env). Every setting is parsed once, with a documented default,
// and a bad value stops start-up with a message naming the variable (see README "Configuration"). The server
// and every command read the same configuration: the process environment over `.env` in the working directory.
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { nearest } from './text/nearest.js';
import { z } from 'zod';
import { parseMailbox } from './mail/headers.js';
import { postmarkEndpoint } from './mail/transports/postmark-host.js';
import type { S3Settings } from './publish/s3/object-store.js';

function isMailbox(value: string): boolean {
  try {
    parseMailbox(value);
    return true;
  } catch {
    return false;
  }
}

// Said in words: zod's own "expected number, received NaN" for PORT=80x told an operator little (a review).
const PORT_WORDS = 'must be a port number, 1 to 65535';
const port = z.coerce.number({ error: PORT_WORDS }).int(PORT_WORDS).min(1, PORT_WORDS).max(65535, PORT_WORDS);
// At least a second: a review's REGENERATE_EVERY_S=0.001 ran the server's job in a 1 ms loop.
const periodSeconds = z.coerce.number().min(1).max(86_400);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * TRUST_PROXY: how many proxies of ours append to X-Forwarded-For in front of the server. `false`/`0`: none; `true`,
 * `yes` or `1`: one (nginx); `2` to `5`: a CDN in front of nginx, each appending the address it got the request from.
 */
const proxyHops = z
  .string()
  .regex(/^(true|false|yes|no|[0-5])$/, 'must be true, false, or how many proxies append to X-Forwarded-For (0 to 5)')
  .transform((v) => (v === 'true' || v === 'yes' ? 1 : v === 'false' || v === 'no' ? 0 : Number(v)));

/** Whether `url` is an origin: scheme, host and port, nothing after (a trailing `/` is allowed). */
function isOrigin(url: string): boolean {
  if (!URL.canParse(url)) return true; // not a URL at all: z.url() says so
  const u = new URL(url);
  return u.pathname === '/' && u.search === '' && u.hash === '' && u.username === '' && u.password === '' && !/[?#]/.test(url);
}

const schema = z
  .object({
    PORT: port.default(4321),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_PATH: z.string().min(1).default('data/app.db'),
    ARTIFACTS_DIR: z.string().min(1).default('data/artifacts'),
    PUBLIC_BASE_URL: z
      // "Invalid URL" alone for competitions.example (no scheme) said nothing of what was wanted (a review).
      .url({ protocol: /^https?$/, error: 'must be an http(s) address such as https://competitions.example' })
      // The pages, the API and the calendars are served at the root of their host: a base with a path was taken,
      // then only the emails' links had it (an operator's review). Refused rather than half honoured.
      .refine((u) => isOrigin(u), 'must be the address the service is served at, with no path, query or user (https://competitions.example): the service is served at the root of its host')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    MAIL_TRANSPORT: z.enum(['file', 'postmark']).default('file'),
    // Whether npm start loads data/demo.json into an empty database (src/app/demo-data.ts): auto, unless the settings
    // are a real deployment's; an operator's first start with a bucket published the demo to it (a review).
    LOAD_DEMO: z.enum(['auto', 'yes', 'no']).default('auto'),
    MAIL_DIR: z.string().min(1).default('data/mail'),
    MAIL_FROM: z
      .string()
      .refine(isMailbox, 'must be one address: Name <local@domain> or local@domain')
      .default('Competitions <no-reply@competitions.example>'),
    POSTMARK_SERVER_TOKEN: z.string().min(1).optional(),
    // Postmark sends bulk mail (followers' digests and alerts, which carry List-Unsubscribe) through a Broadcast
    // stream of its own, apart from the transactional one; its id, as the Postmark server names it.
    POSTMARK_BROADCAST_STREAM: z.string().regex(/^[a-z0-9-]{1,30}$/, 'must be a Postmark message stream id (lower case letters, digits, "-")').optional(),
    POSTMARK_API_HOST: z
      .string()
      .refine((v) => postmarkEndpoint(v) !== null, 'must be an http(s) URL (http://127.0.0.1:9999) or a host name (api.postmarkapp.com)')
      .optional(),
    REGENERATE_EVERY_S: periodSeconds.default(60),
    REGENERATE_THREADS: z.coerce.number().int().min(1).max(16).default(2),
    // What the calendar feeds tell calendar apps (REFRESH-INTERVAL, X-PUBLISHED-TTL): a setting of its own, not
    // derived from REGENERATE_EVERY_S, which a server set high beside a cron job while the cron's renders (reading
    // .env, not the server's environment) said otherwise, each rewriting every feed the other had written.
    CALENDAR_REFRESH_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
    TRUST_PROXY: proxyHops.default(0),
    RATE_LIMIT_WRITES_PER_MIN: z.coerce.number().int().min(0).max(1_000_000).default(20),
    RATE_LIMIT_READS_PER_MIN: z.coerce.number().int().min(0).max(1_000_000).default(600),
    FOLLOW_EMAILS_PER_DAY: z.coerce.number().int().min(0).max(1000).default(3),
    RECEIPTS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(0).max(1000).default(3),
    REGISTRATION_NOTICES_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(0).max(100_000).default(200),
    // Checked here rather than at the first publish (a review's ftp:// endpoint and 'eu west 1' region started the
    // server, then failed every publish): a bucket name of the characters any S3 service takes (AWS's older buckets
    // in us-east-1 have capitals and underscores), an http(s) endpoint, a region name.
    PUBLISH_S3_BUCKET: z.string().min(3).max(63).regex(/^[A-Za-z0-9._-]+$/, 'must be a bucket name: letters, digits, ".", "-" or "_"').optional(),
    PUBLISH_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) address such as https://ACCOUNT.r2.cloudflarestorage.com' }).optional(),
    PUBLISH_S3_REGION: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as eu-west-1 (auto for R2)').default('us-east-1'),
    PUBLISH_S3_PREFIX: z.string().max(200).regex(/^$|^[^/].*\/$/, 'must be empty or end with / (and not start with /)').default(''),
    PUBLISH_S3_FORCE_PATH_STYLE: bool.default(false),
    UPDATES_EVERY_S: periodSeconds.default(60),
    UPDATES_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(18),
    UPDATES_ALERT_DELAY_S: z.coerce.number().int().min(0).max(86_400).default(600),
    MAIL_RETRY_BASE_S: z.coerce.number().positive().max(3600).default(5),
    MAIL_RETRY_MAX_S: z.coerce.number().positive().max(86_400).default(900),
    MAIL_SEND_TIMEOUT_S: z.coerce.number().positive().max(300).default(10),
  })
  .superRefine((c, ctx) => {
    if (c.MAIL_RETRY_BASE_S > c.MAIL_RETRY_MAX_S) {
      ctx.addIssue({ code: 'custom', path: ['MAIL_RETRY_BASE_S'], message: `must not be more than MAIL_RETRY_MAX_S (${c.MAIL_RETRY_MAX_S})` });
    }
    if (c.MAIL_TRANSPORT === 'postmark' && !c.PUBLIC_BASE_URL) {
      // The default, http://localhost:PORT, in real emails: every confirm, answer and unsubscribe link dead (a review).
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_BASE_URL'],
        message: 'is required when MAIL_TRANSPORT=postmark: the links in the emails are made from it (without it they would point at http://localhost)',
      });
    }
    if (c.MAIL_TRANSPORT === 'postmark' && !c.POSTMARK_SERVER_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['POSTMARK_SERVER_TOKEN'],
        message: 'is required when MAIL_TRANSPORT=postmark',
      });
    }
  });

export type Config = Readonly<{
  port: number;
  host: string;
  databasePath: string;
  artifactsDir: string;
  publicBaseUrl: string;
  mailTransport: 'file' | 'postmark';
  loadDemo: 'auto' | 'yes' | 'no';
  mailDir: string;
  mailFrom: string;
  postmarkServerToken: string | undefined;
  postmarkApiHost: string | undefined;
  postmarkBroadcastStream: string | undefined;
  regenerateEveryS: number;
  /** Render threads of a large regeneration (src/publish/render-threads.ts): 1 renders on the job's own thread. */
  regenerateThreads: number;
  /** What the calendar feeds ask calendar apps to poll at, in minutes (CALENDAR_REFRESH_MINUTES). */
  calendarRefreshMinutes: number;
  /** How many proxies of ours append to X-Forwarded-For (TRUST_PROXY); 0: the socket's address is the client's. */
  trustProxy: number;
  /** Per client address and write route (follow, RSVP respond, register); 0 = no limit. */
  rateLimitWritesPerMin: number;
  /** Per client address on the RSVP summary; 0 = no limit. */
  rateLimitReadsPerMin: number;
  /** Confirmation emails one mailbox can be sent in 24 hours, across all follows; 0 = no limit. */
  followEmailsPerDay: number;
  /** Registration receipts one mailbox can be sent in 24 hours (the registration itself is still taken); 0 = no limit. */
  receiptsPerAddressPerDay: number;
  /** Registration notices one organization mailbox can be sent in 24 hours (the rest: the export command); 0 = no limit. */
  registrationNoticesPerAddressPerDay: number;
  /** Where the publish job (src/jobs/publish.ts) sends the rendered reads for a CDN (PUBLISH_S3_BUCKET set), or null. Credentials: the AWS SDK's chain. */
  publishS3: S3Settings | null;
  /** Seconds between runs of the updates job in the server. */
  updatesEveryS: number;
  /** The local hour (in each organization's time zone) of the followers' daily digest. */
  updatesDigestHour: number;
  /** How long an alert waits after the last edit of a batch, so that a batch makes one email. */
  updatesAlertDelayS: number;
  /** First retry delay of a failed email; doubles per attempt (with jitter) up to mailRetryMaxS. */
  mailRetryBaseS: number;
  mailRetryMaxS: number;
  /** How long one delivery attempt may take before it counts as failed (Postmark slow or down). */
  mailSendTimeoutS: number;
}>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses an environment (process.env by default). Empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') raw[key] = value.trim();
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? 'environment');
      // A token, or a URL's password, stays out of the line (it may go to a shared log).
      const shown = raw[name] !== undefined && !name.includes('TOKEN') && !/\/\/[^/]*@/.test(String(raw[name])) ? ` (got "${raw[name]}")` : '';
      return `${name}${shown}: ${i.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  const cwd = process.cwd();
  return Object.freeze({
    port: c.PORT,
    host: c.HOST,
    databasePath: c.DATABASE_PATH === ':memory:' ? c.DATABASE_PATH : path.resolve(cwd, c.DATABASE_PATH),
    artifactsDir: path.resolve(cwd, c.ARTIFACTS_DIR),
    publicBaseUrl: c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`,
    mailTransport: c.MAIL_TRANSPORT,
    loadDemo: c.LOAD_DEMO,
    mailDir: path.resolve(cwd, c.MAIL_DIR),
    mailFrom: c.MAIL_FROM,
    postmarkServerToken: c.POSTMARK_SERVER_TOKEN,
    postmarkApiHost: c.POSTMARK_API_HOST,
    postmarkBroadcastStream: c.POSTMARK_BROADCAST_STREAM,
    regenerateEveryS: c.REGENERATE_EVERY_S,
    regenerateThreads: c.REGENERATE_THREADS,
    calendarRefreshMinutes: c.CALENDAR_REFRESH_MINUTES,
    trustProxy: c.TRUST_PROXY,
    rateLimitWritesPerMin: c.RATE_LIMIT_WRITES_PER_MIN,
    rateLimitReadsPerMin: c.RATE_LIMIT_READS_PER_MIN,
    followEmailsPerDay: c.FOLLOW_EMAILS_PER_DAY,
    receiptsPerAddressPerDay: c.RECEIPTS_PER_ADDRESS_PER_DAY,
    registrationNoticesPerAddressPerDay: c.REGISTRATION_NOTICES_PER_ADDRESS_PER_DAY,
    publishS3: c.PUBLISH_S3_BUCKET
      ? {
          bucket: c.PUBLISH_S3_BUCKET,
          endpoint: c.PUBLISH_S3_ENDPOINT,
          region: c.PUBLISH_S3_REGION,
          prefix: c.PUBLISH_S3_PREFIX,
          forcePathStyle: c.PUBLISH_S3_FORCE_PATH_STYLE,
        }
      : null,
    updatesEveryS: c.UPDATES_EVERY_S,
    updatesDigestHour: c.UPDATES_DIGEST_HOUR,
    updatesAlertDelayS: c.UPDATES_ALERT_DELAY_S,
    mailRetryBaseS: c.MAIL_RETRY_BASE_S,
    mailRetryMaxS: c.MAIL_RETRY_MAX_S,
    mailSendTimeoutS: c.MAIL_SEND_TIMEOUT_S,
  });
}

/**
 * The environment a process runs with: the variables of `.env` in the working directory (ENV_FILE names another
 * file; `ENV_FILE=none` reads none), each overridden by the process environment, as dotenv does, unless the process
 * gives it empty: a systemd `Environment=PORT=`, or a compose file's `PORT: ${PORT}` with PORT unset, served on 4321 with
 * the file's PORT=48304 hidden, and the file's PORT=abc never refused (an on-call review). Empty is unset everywhere
 * else (the schema's defaults), so it is unset here too.
 */
export function effectiveEnvironment(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): NodeJS.ProcessEnv {
  const file = env.ENV_FILE?.trim() || '.env';
  if (file === 'none') return env;
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !env.ENV_FILE) return env;
    throw new ConfigError(`ENV_FILE: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  // A byte-order mark (Notepad writes one) would glue itself to the first name: that setting silently unread.
  const fromFile = parseEnv(text.replace(/^\uFEFF/, ''));
  // A name this service does not read is a typo (RATE_LIMIT_WRITE_PER_MIN) or a variable meant for another
  // program: either way the setting the operator wrote would be silently ignored.
  if ('ENV_FILE' in fromFile) throw new ConfigError(`${file}: ENV_FILE is read from the process environment only (it names this file)`);
  const unknown = Object.keys(fromFile).filter((name) => !(name in schema.shape)).sort();
  if (unknown.length > 0) {
    const named = unknown.map((n) => {
      const meant = nearest(n, Object.keys(schema.shape));
      return meant === null ? JSON.stringify(n) : `${JSON.stringify(n)} (did you mean ${meant}?)`;
    });
    throw new ConfigError(
      `${file}: ${named.join(', ')} ${unknown.length === 1 ? 'is not a setting' : 'are not settings'} ` +
        'of this service (see README "Configuration"; AWS credentials come from the process environment or a profile)',
    );
  }
  const given = Object.fromEntries(Object.entries(env).filter(([name, value]) => !(name in fromFile) || (value ?? '').trim() !== ''));
  return { ...fromFile, ...given };
}

/**
 * The folder a command was typed in. `npm run` starts its script in the project folder and says where it was called
 * from in INIT_CWD: a file named on the command line (`npm run import -- amman.json` from a subfolder) is there.
 */
export function invocationDirectory(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return env.INIT_CWD?.trim() || cwd;
}

let cached: Config | undefined;
/** The process-wide configuration (the process environment over `.env`), parsed on first use. */
export function config(): Config {
  cached ??= loadConfig(effectiveEnvironment());
  return cached;
}
