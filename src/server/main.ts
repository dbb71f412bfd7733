// The node server of an application: rendered artifacts, the RSVP summary, the health read and client assets first,
// then Astro's on-demand endpoints and pages, then the 404 (src/http/not-found.ts: a page for a browser outside /api/).
import path from 'node:path';
import type { Server } from 'node:http';
import type { Application } from '../app/application.js';
import { preflightHeaders } from '../http/headers.js';
import { sendFailedRequest } from '../http/problem.js';
import { logRequestFailure } from '../http/request-failure.js';
import { sendNotFound } from '../http/not-found.js';
import { artifactHandler } from './artifacts.js';
import { DIST_DIR, loadAstroHandler } from './astro-handler.js';
import { clientAssets } from './client-assets.js';
import { createAppServer } from './http-server.js';
import { healthHandler } from './health.js';
import { rsvpSummaryHandler } from './rsvp-summary.js';

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startServer(app: Application): Promise<RunningServer> {
  const { config } = app;
  const astro = await loadAstroHandler();
  const server = createAppServer({
    app,
    handlers: [artifactHandler(config.artifactsDir), rsvpSummaryHandler(app), healthHandler(app), clientAssets(path.join(DIST_DIR, 'client'))],
    astro,
    notFound: (req, res) => {
      // Browsers preflight before they learn a route does not exist: answer, then let the real request 404.
      if (req.method === 'OPTIONS' && req.url?.startsWith('/api/')) {
        res.writeHead(204, preflightHeaders(['GET', 'HEAD', 'POST', 'OPTIONS']));
        res.end();
        return;
      }
      sendNotFound(req, res);
    },
    onError: (error, req, res) => {
      const where = `${req.method} ${req.url?.split('?')[0]}`;
      if (!res.headersSent) sendFailedRequest(res, error, where, config.databasePath);
      else {
        logRequestFailure(error, where, config.databasePath);
        res.destroy();
      }
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return {
    server,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // A keep-alive connection whose request was in flight at close() stays open once answered (a client or a
        // proxy's pool keeps it): each one is closed as soon as it is idle, so that close() ends when the last answer
        // is out, not at the hard exit.
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
