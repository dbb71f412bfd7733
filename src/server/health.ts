// GET /healthz: the service's health for an operator's monitor or a load balancer, 200 when every check holds and
// 503 naming those that do not (src/server/health-report.ts). Outside /api/v0/, whose interface the spec fixes; never
// cached, so that a proxy or CDN between never answers for the node server. The node server answers it itself: it
// reads nothing Astro would add anything to.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Application } from '../app/application.js';
import { BASE_HEADERS, NO_STORE } from '../http/headers.js';
import { answerNonReadMethods } from '../http/problem.js';
import { healthReport } from './health-report.js';

export const HEALTH_PATH = '/healthz';
const ALLOW = ['GET', 'HEAD', 'OPTIONS'];

export function healthHandler(app: Application) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if ((q === -1 ? url : url.slice(0, q)) !== HEALTH_PATH) return false;
    if (answerNonReadMethods(req.method, res, ALLOW)) return true;
    const report = healthReport(app);
    const body = JSON.stringify({ status: report.ok ? 'ok' : 'failing', failing: report.failing, checks: report.checks });
    res.writeHead(report.ok ? 200 : 503, {
      ...BASE_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': NO_STORE,
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
