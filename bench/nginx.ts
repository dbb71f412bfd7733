// nginx serving ARTIFACTS_DIR under the same URLs as the node server, for the read comparison: a config
// written to a temporary prefix, run as a child of the bench (daemon off), listening on 127.0.0.1 only.
import fs from 'node:fs';
import path from 'node:path';
import { CORS_HEADERS, READ_CACHE_CONTROL } from '../src/http/headers.js';
import { CONTENT_TYPES } from '../src/publish/routes.js';

const ID = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}';

export interface NginxSetup {
  prefix: string;
  configFile: string;
  errorLog: string;
}

/** Writes nginx.conf (+ the shared header include) into prefix; returns the paths. */
export function writeNginxConfig(prefix: string, port: number, artifactsDir: string, workers = 2): NginxSetup {
  fs.mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  const q = (s: string) => `"${s.replace(/(["\\$])/g, '\\$1')}"`;
  const readHeaders = [
    `add_header Cache-Control ${q(READ_CACHE_CONTROL)};`,
    ...Object.entries(CORS_HEADERS).map(([k, v]) => `add_header ${k} ${q(v)} always;`),
    'add_header Vary "Accept-Encoding";',
    'add_header X-Content-Type-Options "nosniff" always;',
  ].join('\n');
  fs.writeFileSync(path.join(prefix, 'read-headers.conf'), `${readHeaders}\n`);
  const problem404 = JSON.stringify({
    type: '/docs#problem-not-found',
    title: 'Not found',
    status: 404,
    detail: 'No public event has this id.',
  });
  const errorLog = path.join(prefix, 'error.log');
  const config = `# Written by bench/nginx.ts for one bench run.
daemon off;
master_process on;
worker_processes ${workers};
pid ${prefix}/nginx.pid;
error_log ${errorLog} warn;
events { worker_connections 1024; }
http {
  access_log off;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  # Like the node server (keep-alive 5 s, no limit on requests per connection).
  keepalive_timeout 5s;
  keepalive_requests 1000000;
  open_file_cache max=20000 inactive=60s;
  open_file_cache_valid 1s;
  open_file_cache_min_uses 1;
  open_file_cache_errors on;
  etag on;
  gzip_static on;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;

  server {
    listen 127.0.0.1:${port};
    root ${artifactsDir};
    error_page 404 @not_found;

    location = /api/v0/events {
      types { } default_type ${q(CONTENT_TYPES.json)};
      include ${prefix}/read-headers.conf;
      try_files /api/v0/events.json =404;
    }
    location ~ "^/api/v0/events/(${ID})/(standings|bracket)$" {
      types { } default_type ${q(CONTENT_TYPES.json)};
      include ${prefix}/read-headers.conf;
      try_files /api/v0/events/$1/$2.json =404;
    }
    location ~ "^/api/v0/calendar/(${ID})$" {
      types { } default_type ${q(CONTENT_TYPES.ics)};
      include ${prefix}/read-headers.conf;
      add_header Content-Disposition 'inline; filename="$1.ics"';
      try_files /api/v0/calendar/$1.ics =404;
    }
    location / { return 404; }
    location @not_found {
      default_type application/problem+json;
      add_header Cache-Control "no-store" always;
      add_header Access-Control-Allow-Origin "*" always;
      add_header X-Content-Type-Options "nosniff" always;
      return 404 '${problem404}';
    }
  }
}
`;
  const configFile = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(configFile, config);
  return { prefix, configFile, errorLog };
}
