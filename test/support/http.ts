// Raw HTTP requests (node:http): bytes as sent, no automatic decompression or header defaults.
//
// Every response to a path under /api/v0/ is also checked against the OpenAPI document
// (src/api/openapi.ts) before the test gets it: the operation for the path template and method, the
// response for the status (an undocumented path, method or status is drift too), its headers, its content
// type and its body (decompressed first) against the schema. A mismatch rejects the request, so the test
// that made it fails, naming what differs. Each exchange is also appended to a log that the global teardown
// (test/global-setup.ts) sums up: how many responses were validated, and which documented responses no
// test exercised. Pass `contract: false` only for a request that deliberately falls outside the document.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import zlib from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, inject } from 'vitest';
import { buildOpenApiDocument } from '../../src/api/openapi/document.js';
import {
  METHODS,
  type HeaderObject,
  type OpenApiDocument,
  type OperationObject,
  type PathItemObject,
  type Ref,
  type ResponseObject,
} from '../../src/api/openapi/types.js';

export interface RawResponse {
  status: number;
  /** The status line's reason phrase. */
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json<T = any>(): T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** false: do not check this exchange against the API document (a deliberate probe outside it). */
  contract?: boolean;
}

export function request(url: string, options: RequestOptions = {}): Promise<RawResponse> {
  const method = options.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const response: RawResponse = {
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          body,
          text: body.toString('utf8'),
          json: () => JSON.parse(body.toString('utf8')),
        };
        if (options.contract === false) return resolve(response);
        const exchange: Exchange = { method, url, status: response.status, headers: res.headers, body };
        const result = contractChecker().check(exchange);
        if (result) {
          record(exchange, result);
          if (result.problems.length > 0) {
            return reject(new Error(`The response does not match the API document (${result.key}):\n  - ${result.problems.join('\n  - ')}`));
          }
        }
        resolve(response);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

// ---------------------------------------------------------------------------------------------------------
// The contract checker.

export interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface CheckResult {
  /** The documented response this exchange was checked against: `GET /api/v0/events/{eventId}/standings 200`. */
  key: string;
  problems: string[];
}

const DOC_ID = 'https://contract.test/openapi.json';
const JSON_MEDIA = /^application\/(?:[a-z0-9.+-]*\+)?json$/;

/** The `METHOD path status` keys of every response the document describes (the coverage the teardown reports). */
export function documentedResponses(doc: OpenApiDocument): string[] {
  const keys: string[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) for (const status of Object.keys(op.responses)) keys.push(`${method.toUpperCase()} ${template} ${status}`);
    }
  }
  return keys;
}

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { template: string; item: PathItemObject; pattern: RegExp }[];

  constructor(readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOC_ID, components: doc.components } as object);
    // Concrete paths match before templated ones (OpenAPI 3.1, "Path Templating Matching").
    this.routes = Object.entries(doc.paths)
      .map(([template, item]) => ({
        template,
        item,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
      }))
      // Fewer parameters first, then more literal text (`{eventId}.ics` before `{eventId}`).
      .sort(
        (a, b) =>
          (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0) ||
          b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length,
      );
  }

  /** Follows a `#/…` reference inside the document. */
  deref<T>(value: T | Ref): T {
    let current: unknown = value;
    while (current && typeof current === 'object' && '$ref' in current) {
      const pointer = (current as Ref).$ref;
      if (!pointer.startsWith('#/')) throw new Error(`not a local reference: ${pointer}`);
      current = pointer
        .slice(2)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], this.doc);
      if (current === undefined) throw new Error(`unresolved reference ${pointer}`);
    }
    return current as T;
  }

  /** Validates a value against a schema of the document; returns the errors, or [] when it conforms. */
  validate(schema: unknown, value: unknown): string[] {
    const text = JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`);
    let validator = this.validators.get(text);
    if (!validator) {
      validator = this.ajv.compile(JSON.parse(text) as object);
      this.validators.set(text, validator);
    }
    if (validator(value)) return [];
    return (validator.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`);
  }

  /** Null when the URL is outside /api/v0/ (pages, mail links): nothing there is in the document. */
  check(ex: Exchange): CheckResult | null {
    const pathname = new URL(ex.url).pathname;
    if (!pathname.startsWith('/api/v0/')) return null;
    const method = ex.method.toLowerCase();
    const METHOD = method.toUpperCase();
    const problems: string[] = [];
    const route = this.routes.find((r) => r.pattern.test(pathname));
    let response: ResponseObject | Ref | undefined;
    let key: string;
    if (!route) {
      const unknown = this.doc['x-unknown-route'];
      key = `${METHOD} (unknown route) ${ex.status}`;
      response = method === 'options' ? unknown.options.responses[String(ex.status)] : unknown.responses[String(ex.status)];
      if (!response) problems.push(`${METHOD} ${pathname} is on no documented path, and answered ${ex.status}`);
    } else {
      const op = (METHODS as readonly string[]).includes(method) ? (route.item[method as keyof PathItemObject] as OperationObject | undefined) : undefined;
      if (!op) {
        key = `${METHOD} ${route.template} (method not allowed) ${ex.status}`;
        response = route.item['x-method-not-allowed'] ?? this.doc.components.responses.MethodNotAllowed;
        if (ex.status !== 405) problems.push(`${METHOD} is not an operation of ${route.template}: expected 405, got ${ex.status}`);
        if (ex.headers.allow !== route.item['x-allow']) problems.push(`Allow is ${ex.headers.allow}, expected ${route.item['x-allow']}`);
      } else {
        key = `${METHOD} ${route.template} ${ex.status}`;
        response = op.responses[String(ex.status)];
        if (!response) problems.push(`status ${ex.status} is not documented for ${METHOD} ${route.template} (${Object.keys(op.responses).join(', ')})`);
      }
    }
    if (response) problems.push(...this.checkResponse(this.deref(response), ex));
    return { key, problems };
  }

  private checkResponse(response: ResponseObject, ex: Exchange): string[] {
    const problems: string[] = [];
    for (const [name, h] of Object.entries(response.headers ?? {})) {
      const header = this.deref<HeaderObject>(h);
      const value = ex.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`header ${name} is missing`);
        continue;
      }
      for (const e of this.validate(header.schema, Array.isArray(value) ? value.join(', ') : value)) problems.push(`header ${name}: "${value}" ${e.replace(/^\(root\) /, '')}`);
    }
    const bodiless = ex.method === 'HEAD' || ex.status === 204 || ex.status === 304;
    if (bodiless || !response.content) {
      if (ex.body.length > 0) problems.push(`${ex.body.length} bytes of body where the document describes none`);
      return problems;
    }
    const contentType = ex.headers['content-type'] ?? '';
    const media = contentType.split(';')[0]!.trim().toLowerCase();
    // A person's browser gets the page the response's x-form-page describes, outside its content (operations.ts).
    const page = response['x-form-page'];
    const content = page && contentType === page.contentType ? page : response.content[media];
    if (!content) return [...problems, `Content-Type "${contentType}" is not documented (${[...Object.keys(response.content), ...(page ? [page.contentType] : [])].join(', ')})`];
    if (contentType !== media && contentType !== `${media}; charset=utf-8`) problems.push(`Content-Type "${contentType}": expected ${media}; charset=utf-8`);
    let bytes: Buffer;
    try {
      const encoding = ex.headers['content-encoding'];
      bytes = encoding === 'br' ? zlib.brotliDecompressSync(ex.body) : encoding === 'gzip' ? zlib.gunzipSync(ex.body) : ex.body;
      if (encoding !== undefined && encoding !== 'br' && encoding !== 'gzip') problems.push(`Content-Encoding ${encoding} is not documented`);
    } catch (error) {
      return [...problems, `the body cannot be decoded: ${String(error)}`];
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return [...problems, 'the body is not UTF-8'];
    }
    let value: unknown = text;
    if (JSON_MEDIA.test(media)) {
      try {
        value = JSON.parse(text);
      } catch {
        return [...problems, 'the body is not JSON'];
      }
    }
    for (const e of this.validate(content.schema, value)) problems.push(`body ${e}`);
    return problems;
  }
}

let checker: ContractChecker | undefined;
/** One checker per test worker, over the document as the code builds it (the served one is checked equal to it). */
export function contractChecker(): ContractChecker {
  checker ??= new ContractChecker(buildOpenApiDocument());
  return checker;
}

// ---------------------------------------------------------------------------------------------------------
// The log.

export interface LoggedExchange {
  test: string | undefined;
  method: string;
  url: string;
  status: number;
  key: string;
  problems: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each test worker appends the exchanges it checked (test/global-setup.ts). */
    contractLogDir: string;
  }
}

/** The checked exchanges of this test file (modules are isolated per file). */
export const checkedExchanges: LoggedExchange[] = [];

function record(ex: Exchange, result: CheckResult): void {
  const entry: LoggedExchange = {
    test: expect.getState().currentTestName,
    method: ex.method,
    url: new URL(ex.url).pathname,
    status: ex.status,
    key: result.key,
    problems: result.problems,
  };
  checkedExchanges.push(entry);
  let dir: string | undefined;
  try {
    dir = inject('contractLogDir');
  } catch {
    dir = undefined;
  }
  if (dir) fs.appendFileSync(path.join(dir, `${process.pid}-${threadId}.jsonl`), JSON.stringify(entry) + '\n');
}
