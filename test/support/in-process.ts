// The application built in-process on a temporary database (the composition root, as the server builds it),
// and endpoints called with real `Request` objects, as Astro would call them: no server, no socket.
import fs from 'node:fs';
import path from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { createApplication, type Application, type ApplicationOptions } from '../../src/app/application.js';
import { loadConfig } from '../../src/config.js';
import { importFile } from '../../src/import/run.js';
import { tempDir } from './db.js';

export interface InProcessApp {
  app: Application;
  dir: string;
  close(): Promise<void>;
}

/** An application on a fresh database in a temporary folder, loaded with an import file. */
export async function inProcessApp(
  options: { env?: Record<string, string>; importFile?: string } & ApplicationOptions = {},
): Promise<InProcessApp> {
  const dir = tempDir('competitions-app-');
  const config = loadConfig({
    DATABASE_PATH: path.join(dir, 'app.db'),
    ARTIFACTS_DIR: path.join(dir, 'artifacts'),
    MAIL_DIR: path.join(dir, 'mail'),
    PUBLIC_BASE_URL: 'https://competitions.example',
    ...options.env,
  });
  const app = await createApplication(config, { log: () => {}, ...options });
  const outcome = importFile(app.database.sqlite, options.importFile ?? path.resolve(import.meta.dirname, '../fixtures/import-small.json'));
  if (!outcome.ok) throw new Error(`import: ${JSON.stringify(outcome.problems)}`);
  return {
    app,
    dir,
    close: async () => {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls an Astro endpoint as Astro would: the request, its route parameters, and our locals. */
export async function callEndpoint(
  route: APIRoute,
  request: Request,
  app: Application,
  options: { params?: Record<string, string>; clientAddress?: string } = {},
): Promise<Response> {
  const context = { request, params: options.params ?? {}, locals: { app, clientAddress: options.clientAddress ?? '203.0.113.7' } };
  return route(context as unknown as APIContext);
}
