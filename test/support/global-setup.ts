// HTTP tests run the real server, which needs Astro's build: build once before the suite when missing.
// The HTTP helper checks every /api/v0/ response against the OpenAPI document and logs it to a folder made
// here; the teardown sums the log up (responses validated, documented responses never exercised) and fails
// the run if any logged exchange did not match, even one whose test swallowed the error.
// Every temporary folder of the run (tests', servers', commands', the bench smoke's) is made under one folder of its
// own, TMPDIR for the whole run, removed at its end: tests make theirs with mkdtemp and leave them (a dataset of
// the regeneration crash test alone is 84 MB), which filled a developer's /tmp by a few hundred megabytes a run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIfNeeded } from '../../scripts/build-if-needed.js';

export default function setup(project: TestProject): () => Promise<void> {
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  // Tests say everything they configure: a developer's .env must not reach the services and commands they start.
  process.env.ENV_FILE = 'none';
  const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-tests-'));
  // mkdtemp makes it 0700; nginx's workers (user nobody when the tests run as root) read files under it.
  fs.chmodSync(runTmp, 0o755);
  // os.tmpdir() reads TMPDIR at each call; the test workers and every process they start inherit it.
  process.env.TMPDIR = runTmp;
  buildIfNeeded();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-contract-'));
  project.provide('contractLogDir', logDir);
  return async () => {
    try {
      await summarize(logDir);
    } finally {
      fs.rmSync(runTmp, { recursive: true, force: true });
    }
  };
}

async function summarize(logDir: string): Promise<void> {
  const { buildOpenApiDocument } = await import('../../src/api/openapi/document.js');
  const { documentedResponses } = await import('./http.js');
  const entries = fs
    .readdirSync(logDir)
    .flatMap((file) => fs.readFileSync(path.join(logDir, file), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as import('./http.js').LoggedExchange);
  if (entries.length === 0) return;
  const failed = entries.filter((e) => e.problems.length > 0);
  const seen = new Set(entries.map((e) => e.key));
  const documented = documentedResponses(buildOpenApiDocument());
  const never = documented.filter((k) => !seen.has(k));
  console.log(
    `\nAPI contract: ${entries.length} responses under /api/v0/ validated against the OpenAPI document, ${failed.length} mismatched; ` +
      `${documented.length - never.length} of ${documented.length} documented responses exercised.` +
      (never.length ? `\nNever exercised: ${never.join('; ')}` : ''),
  );
  if (failed.length > 0) {
    const lines = failed.slice(0, 20).map((e) => `${e.key} (${e.test ?? 'no test'}): ${e.problems.join('; ')}`);
    process.exitCode = 1;
    throw new Error(`${failed.length} responses do not match the API document:\n  ${lines.join('\n  ')}`);
  }
}
