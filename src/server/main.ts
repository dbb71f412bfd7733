// The node server: rendered artifacts and client assets first, then Astro's on-demand endpoints and pages.
import path from 'node:path';
import type { Server } from 'node:http';
import type { Config } from '../config.js';
import { preflightHeaders } from '../http/cors.js';
import { sendProblem } from '../http/problem.js';
import { DIST_DIR, loadAstroHandler } from './astro-handler.js';
import { clientAssets } from './client-assets.js';
import { createAppServer, type RouteHandler } from './http-server.js';

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startServer(config: Config, extraHandlers: RouteHandler[] = []): Promise<RunningServer> {
  const astro = await loadAstroHandler();
  const server = createAppServer({
    handlers: [...extraHandlers, clientAssets(path.join(DIST_DIR, 'client'))],
    astro,
    trustProxy: config.trustProxy,
    notFound: (req, res) => {
      // Browsers preflight before they learn a route does not exist: answer, then let the real request 404.
      if (req.method === 'OPTIONS' && req.url?.startsWith('/api/')) {
        res.writeHead(204, preflightHeaders(['GET', 'HEAD', 'POST', 'OPTIONS']));
        res.end();
        return;
      }
      sendProblem(res, 404, `No route for ${req.method} ${req.url?.split('?')[0]}`, { head: req.method === 'HEAD' });
    },
    onError: (error, req, res) => {
      console.error(`request failed: ${req.method} ${req.url?.split('?')[0]}`, error);
      if (!res.headersSent) sendProblem(res, 500, 'The server could not answer this request.');
      else res.destroy();
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
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
