import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, effectiveEnvironment, loadConfig } from './config.js';
import { regenerateOptions } from './publish/regenerate.js';

describe('configuration', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 4321,
      host: '0.0.0.0',
      databasePath: path.resolve('data/app.db'),
      artifactsDir: path.resolve('data/artifacts'),
      publicBaseUrl: 'http://localhost:4321',
      mailTransport: 'file',
      mailDir: path.resolve('data/mail'),
      regenerateEveryS: 60,
      trustProxy: 0,
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  // A review: the feeds' refresh came from REGENERATE_EVERY_S, so a server with it set high (cron renders) and the
  // cron's own renders said different things, and each rewrote every feed (new ETags, a full publish) the other wrote.
  it('gives the calendar feeds their own refresh interval, whatever the regeneration period', () => {
    expect(regenerateOptions(loadConfig({ REGENERATE_EVERY_S: '3600' }), 'x.example').refreshMinutes).toBe(5);
    expect(regenerateOptions(loadConfig({ REGENERATE_EVERY_S: '60', CALENDAR_REFRESH_MINUTES: '60' }), 'x.example').refreshMinutes).toBe(60);
  });

  it('reads values and trims the base URL', () => {
    const c = loadConfig({ PORT: '8080', PUBLIC_BASE_URL: 'https://fixtures.example/', TRUST_PROXY: 'true', REGENERATE_EVERY_S: '15' });
    expect(c).toMatchObject({ port: 8080, publicBaseUrl: 'https://fixtures.example', trustProxy: 1, regenerateEveryS: 15 });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT \(got "abc"\): must be a port number, 1 to 65535/],
    [{ PORT: '70000' }, /PORT \(got "70000"\): must be a port number, 1 to 65535/],
    [{ MAIL_TRANSPORT: 'smtp' }, /MAIL_TRANSPORT \(got "smtp"\)/],
    [{ MAIL_TRANSPORT: 'postmark' }, /POSTMARK_SERVER_TOKEN: is required/],
    // An operator's review: real emails went out with http://localhost links, every link dead.
    [{ MAIL_TRANSPORT: 'postmark', POSTMARK_SERVER_TOKEN: 't' }, /PUBLIC_BASE_URL: is required when MAIL_TRANSPORT=postmark/],
    [{ LOAD_DEMO: 'maybe' }, /LOAD_DEMO/],
    [{ PUBLIC_BASE_URL: 'not a url' }, /PUBLIC_BASE_URL/],
    // An operator's review read "Invalid URL", with no word of what was wanted.
    [{ PUBLIC_BASE_URL: 'competitions.example' }, /PUBLIC_BASE_URL \(got "competitions\.example"\): must be an http\(s\) address such as https:\/\/competitions\.example/],
    [{ PUBLIC_BASE_URL: 'ftp://x.example' }, /PUBLIC_BASE_URL/],
    // An operator's review: a path was taken, and only the emails' links had it.
    [{ PUBLIC_BASE_URL: 'https://x.example/competitions' }, /PUBLIC_BASE_URL.*no path/],
    [{ PUBLIC_BASE_URL: 'https://x.example/?a=1' }, /PUBLIC_BASE_URL.*no path/],
    [{ PUBLIC_BASE_URL: 'https://user:pw@x.example' }, /^(?![\s\S]*pw@)[\s\S]*PUBLIC_BASE_URL: must be .* no path/],
    [{ REGENERATE_EVERY_S: '0' }, /REGENERATE_EVERY_S/],
    [{ CALENDAR_REFRESH_MINUTES: '0' }, /CALENDAR_REFRESH_MINUTES/],
    [{ CALENDAR_REFRESH_MINUTES: '2.5' }, /CALENDAR_REFRESH_MINUTES/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '6' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '-1' }, /TRUST_PROXY/],
    // A review's settings that started the server and failed later, or ran a job in a 1 ms loop.
    [{ REGENERATE_EVERY_S: '0.001' }, /REGENERATE_EVERY_S/],
    [{ UPDATES_EVERY_S: '0.5' }, /UPDATES_EVERY_S/],
    [{ PUBLISH_S3_BUCKET: 'reads', PUBLISH_S3_ENDPOINT: 'ftp://x.example' }, /PUBLISH_S3_ENDPOINT/],
    [{ PUBLISH_S3_BUCKET: 'my reads' }, /PUBLISH_S3_BUCKET/],
    [{ PUBLISH_S3_BUCKET: 'reads', PUBLISH_S3_REGION: 'eu west 1' }, /PUBLISH_S3_REGION/],
    [{ MAIL_RETRY_BASE_S: '600', MAIL_RETRY_MAX_S: '5' }, /MAIL_RETRY_BASE_S \(got "600"\): must not be more than MAIL_RETRY_MAX_S \(5\)/],
  ])('stops on %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a token', () => {
    expect(() => loadConfig({ MAIL_TRANSPORT: 'postmark', POSTMARK_SERVER_TOKEN: ' ' })).toThrow(/POSTMARK_SERVER_TOKEN/);
  });
});

describe('effectiveEnvironment', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-env-'));
  fs.writeFileSync(path.join(dir, '.env'), 'PORT=5000\nMAIL_DIR=from-file\n# a comment\nHOST="127.0.0.1"\n');
  fs.writeFileSync(path.join(dir, 'other.env'), 'PORT=6000\n');

  it.each([
    ['.env under the process environment', { MAIL_DIR: 'from-env' }, { PORT: '5000', MAIL_DIR: 'from-env', HOST: '127.0.0.1' }],
    ['the file ENV_FILE names', { ENV_FILE: 'other.env' }, { PORT: '6000' }],
    ['no file with ENV_FILE=none', { ENV_FILE: 'none' }, { ENV_FILE: 'none' }],
    // An empty variable is unset: it does not hide the file's value (systemd's `Environment=PORT=`).
    ['.env under an empty process variable', { PORT: '', MAIL_DIR: '  ' }, { PORT: '5000', MAIL_DIR: 'from-file', HOST: '127.0.0.1' }],
  ])('reads %s', (_label, env, expected) => {
    const result = effectiveEnvironment(env, dir);
    expect(result).toMatchObject(expected);
    if ((env as { ENV_FILE?: string }).ENV_FILE === 'none') expect(result.PORT).toBeUndefined();
  });

  it('reads a file saved with a byte-order mark and CRLF (Notepad) from its first setting', () => {
    const bom = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-env-'));
    fs.writeFileSync(path.join(bom, '.env'), '\uFEFFPORT=eighty\r\nHOST=127.0.0.1\r\n');
    expect(effectiveEnvironment({}, bom)).toEqual({ PORT: 'eighty', HOST: '127.0.0.1' });
    expect(() => loadConfig(effectiveEnvironment({}, bom))).toThrow(/PORT \(got "eighty"\)/);
  });

  it('refuses a name in the file that is not a setting, naming it and the file', () => {
    const typo = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-env-'));
    fs.writeFileSync(path.join(typo, '.env'), 'PORT=4700\nRATE_LIMIT_WRITE_PER_MIN=0\nAWS_ACCESS_KEY_ID=x\n');
    expect(() => effectiveEnvironment({}, typo)).toThrow(
      '.env: "AWS_ACCESS_KEY_ID", "RATE_LIMIT_WRITE_PER_MIN" (did you mean RATE_LIMIT_WRITES_PER_MIN?) are not settings of this service (see README "Configuration"; AWS credentials come from the process environment or a profile)',
    );
    // A typo the operator reads past: the setting it meant is named.
    for (const [typed, meant] of [['PUBLISH_S3_BUKET', 'PUBLISH_S3_BUCKET'], ['mail_transport', 'MAIL_TRANSPORT'], ['DATABSE_PATH', 'DATABASE_PATH'], ['PROT', 'PORT']]) {
      fs.writeFileSync(path.join(typo, '.env'), `${typed}=x\n`);
      expect(() => effectiveEnvironment({}, typo), typed).toThrow(`.env: "${typed}" (did you mean ${meant}?) is not a setting`);
    }
    fs.writeFileSync(path.join(typo, '.env'), 'ENV_FILE=other.env\n');
    expect(() => effectiveEnvironment({}, typo)).toThrow('.env: ENV_FILE is read from the process environment only (it names this file)');
  });

  it('takes .env.example copied whole with only PORT changed: the links follow the port', () => {
    // An operator who copied it and changed PORT kept http://localhost:4321 in every email link and calendar UID.
    const example = fs.readFileSync(path.join(import.meta.dirname, '..', '.env.example'), 'utf8');
    const copied = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-env-'));
    fs.writeFileSync(path.join(copied, '.env'), example.replace(/^PORT=4321$/m, 'PORT=4700'));
    const config = loadConfig(effectiveEnvironment({}, copied));
    expect([config.port, config.publicBaseUrl]).toEqual([4700, 'http://localhost:4700']);
  });

  it('is the process environment alone without a .env, and an error naming ENV_FILE when the named file is missing', () => {
    expect(effectiveEnvironment({ PORT: '1' }, os.tmpdir())).toEqual({ PORT: '1' });
    expect(() => effectiveEnvironment({ ENV_FILE: 'missing.env' }, dir)).toThrow(/ENV_FILE: cannot read missing.env: ENOENT/);
  });
});
