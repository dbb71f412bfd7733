// Astro's built client assets (dist/client: hashed /_astro/* files and public/). The adapter's
// middleware mode leaves serving them to us.
import fs from 'node:fs';
import path from 'node:path';
import type { RouteHandler } from './http-server.js';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

export function clientAssets(clientDir: string): RouteHandler {
  const root = path.resolve(clientDir);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return false;
    }
    if (pathname === '/' || pathname.endsWith('/') || pathname.includes('\0')) return false;
    const type = TYPES[path.extname(pathname)];
    if (!type) return false;
    const file = path.resolve(root, '.' + pathname);
    if (!file.startsWith(root + path.sep)) return false;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return false;
    }
    if (!stat.isFile()) return false;
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Length': stat.size,
      'X-Content-Type-Options': 'nosniff',
      // Files under /_astro/ carry a content hash in their name.
      'Cache-Control': pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
    return true;
  };
}
