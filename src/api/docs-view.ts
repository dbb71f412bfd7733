// Turns the OpenAPI document into what the /docs page shows: operations with their parameters, request
// fields, responses, headers and curl examples; a section per problem type; the fields of every schema.
// Pure, so the page template stays a template and the rendering can be tested without a browser.
import { buildOpenApiDocument } from './openapi/document.js';
import { problemName, problemTypes } from './openapi/problems.js';
import { CHECKED } from './openapi/schemas.js';
import type {
  ExampleObject,
  HeaderObject,
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  Ref,
  ResponseObject,
} from './openapi/types.js';
import { subscribeLinks, type SubscribeLinks } from '../competitions/subscribe-links.js';

export interface FieldRow {
  name: string;
  type: string;
  /** Anchor of the schema the type names, when it is one of the document's. */
  link?: string;
  required: boolean;
  description: string;
  constraints: string[];
}

export interface HeaderRow {
  name: string;
  value: string;
  required: boolean;
  description: string;
}

export interface BodyView {
  contentType: string;
  /** `array of Event`, `RsvpSummary`, `string`. */
  shape: string;
  link?: string;
  fields: FieldRow[];
  examples: { title: string; text: string }[];
}

export interface ResponseView {
  status: string;
  description: string;
  headers: HeaderRow[];
  body?: BodyView;
  /** Problem responses link to their section instead of repeating it. */
  problem?: { slug: string; title: string };
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  parameters: FieldRow[];
  requestBody?: { description: string; contentTypes: string[]; body: BodyView };
  responses: ResponseView[];
  curl: string[];
  /** For a calendar feed: the example feed as a person adds it (webcal, https, Google Calendar). */
  subscribe?: SubscribeLinks;
  /** HEAD, OPTIONS and 405 in one line each, rather than as separate operations. */
  alsoHead: boolean;
  allow: string;
}

export interface ProblemView {
  status: number;
  slug: string;
  title: string;
  type: string;
  when: string;
  example: string;
  usedBy: string[];
}

export interface SchemaView {
  name: string;
  description: string;
  shape: string;
  fields: FieldRow[];
}

export interface DocsView {
  title: string;
  version: string;
  summary: string;
  description: string;
  server: string;
  operations: OperationView[];
  problems: ProblemView[];
  schemas: SchemaView[];
}

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

function resolver(doc: OpenApiDocument) {
  return function deref<T>(value: T | Ref): T {
    let current: unknown = value;
    while (current && typeof current === 'object' && '$ref' in current) {
      current = (current as Ref).$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    }
    return current as T;
  };
}

const refName = (schema: JsonSchema): string | undefined =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/') ? schema.$ref.slice('#/components/schemas/'.length) : undefined;

/** A short type for a schema: `string`, `integer`, `Event`, `array of Event`, `string | null`. */
export function typeOf(schema: JsonSchema): { type: string; link?: string } {
  const name = refName(schema);
  if (name) return { type: name, link: `#schema-${name}` };
  if (Array.isArray(schema.anyOf)) {
    const parts = (schema.anyOf as JsonSchema[]).map(typeOf);
    return { type: parts.map((p) => p.type).join(' | '), link: parts.find((p) => p.link)?.link };
  }
  if (schema.const !== undefined) return { type: JSON.stringify(schema.const) };
  if (schema.type === 'array' && schema.items) {
    const item = typeOf(schema.items as JsonSchema);
    return { type: `array of ${item.type}`, link: item.link };
  }
  if (Array.isArray(schema.type)) return { type: schema.type.join(' | ') };
  return { type: typeof schema.type === 'string' ? schema.type : 'any' };
}

/** The rules a schema adds to its type, in words. */
export function constraintsOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).flatMap(constraintsOf);
  const out: string[] = [];
  if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  if (schema.format === 'date-time') out.push('RFC 3339 date-time in UTC (`Z`), whole seconds');
  else if (schema.format) out.push(`format \`${String(schema.format)}\``);
  if (typeof schema.pattern === 'string' && schema.format !== 'date-time') out.push(`pattern \`${schema.pattern}\``);
  if (typeof schema.minLength === 'number' && typeof schema.maxLength === 'number') out.push(`${schema.minLength} to ${schema.maxLength} characters`);
  else if (typeof schema.maxLength === 'number') out.push(`at most ${schema.maxLength} characters`);
  else if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push('not empty');
  const min = typeof schema.minimum === 'number' && Math.abs(schema.minimum) !== SAFE_INTEGER ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' && Math.abs(schema.maximum) !== SAFE_INTEGER ? schema.maximum : undefined;
  if (min !== undefined && max !== undefined) out.push(`${min} to ${max}`);
  else if (min !== undefined) out.push(`at least ${min}`);
  else if (max !== undefined) out.push(`at most ${max}`);
  if (typeof schema.minItems === 'number' && schema.minItems > 0) out.push(`at least ${schema.minItems} item${schema.minItems > 1 ? 's' : ''}`);
  return out;
}


function fieldsOf(schema: JsonSchema, deref: <T>(v: T | Ref) => T): FieldRow[] {
  let target = deref<JsonSchema>(schema);
  if (target.type === 'array' && target.items) target = deref<JsonSchema>(target.items as JsonSchema);
  if (Array.isArray(target.allOf)) target = deref<JsonSchema>((target.allOf as JsonSchema[])[0]!);
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((target.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, sent]) => {
    // A request field's rules as the service checks them (schemas.ts CHECKED), not the wider form it may be sent in.
    const property = (sent[CHECKED] as JsonSchema | undefined) ?? sent;
    const { type, link } = typeOf(property);
    const inner = Array.isArray(property.anyOf) ? ((property.anyOf as JsonSchema[]).find((s) => s.type !== 'null') ?? {}) : property;
    const description = String(property.description ?? inner.description ?? '');
    const row: FieldRow = { name, type, link, required: required.has(name), description, constraints: constraintsOf(property) };
    // An inline object (the RSVP `summary`) lists its own fields as `summary.yes`.
    const nested = property.type === 'object' && property.properties ? fieldsOf(property, deref).map((f) => ({ ...f, name: `${name}.${f.name}` })) : [];
    return [row, ...nested];
  });
}

function exampleText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\r\n/g, '\n') : JSON.stringify(value, null, 2);
}

function bodyView(contentType: string, media: { schema: JsonSchema; examples?: Record<string, ExampleObject> }, deref: <T>(v: T | Ref) => T): BodyView {
  const { type, link } = typeOf(media.schema);
  const target = deref<JsonSchema>(media.schema);
  const shape = target.type === 'array' ? `array of ${typeOf(target.items as JsonSchema).type}` : type;
  const fields = target.type === 'string' ? [] : fieldsOf(media.schema, deref);
  const examples = Object.values(media.examples ?? {}).map((e) => ({ title: e.summary ?? 'Example', text: exampleText(e.value) }));
  return { contentType, shape, link, fields, examples };
}

function headerValue(schema: JsonSchema): string {
  if (schema.const !== undefined) return String(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(String).join(' | ');
  if (typeof schema.pattern === 'string') return `pattern ${schema.pattern}`;
  return String(schema.type ?? '');
}

function headersOf(response: ResponseObject, deref: <T>(v: T | Ref) => T): HeaderRow[] {
  return Object.entries(response.headers ?? {}).map(([name, h]) => {
    const header = deref<HeaderObject>(h);
    return { name, value: headerValue(header.schema), required: header.required === true, description: header.description ?? '' };
  });
}

const REASONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No Content',
  '304': 'Not Modified',
};

export function buildDocsView(doc: OpenApiDocument): DocsView {
  const deref = resolver(doc);
  const problemByName = new Map(problemTypes().map((p) => [p.name, p]));
  const usedBy = new Map<number, string[]>();
  const operations: OperationView[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post'] as const) {
      const op: OperationObject | undefined = item[method];
      if (!op) continue;
      const parameters = (op.parameters ?? []).map((p) => {
        const parameter = deref<ParameterObject>(p);
        const { type } = typeOf(parameter.schema);
        return {
          name: parameter.name,
          type: `${type} (${parameter.in})`,
          required: parameter.required === true,
          description: parameter.description ?? '',
          constraints: constraintsOf(parameter.schema),
        };
      });
      const responses: ResponseView[] = Object.entries(op.responses).map(([status, r]) => {
        const name = '$ref' in r ? r.$ref.split('/').pop()! : undefined;
        const response = deref<ResponseObject>(r);
        const problem = name ? problemByName.get(problemName(name)) : undefined;
        if (problem) {
          usedBy.set(problem.status, [...(usedBy.get(problem.status) ?? []), `${method.toUpperCase()} ${path}`]);
          return { status, description: response.description, headers: [], problem: { slug: problem.slug, title: problem.title } };
        }
        const [contentType, media] = Object.entries(response.content ?? {})[0] ?? [];
        return {
          status: `${status} ${REASONS[status] ?? ''}`.trim(),
          description: response.description,
          headers: headersOf(response, deref),
          body: contentType && media ? bodyView(contentType, media, deref) : undefined,
        };
      });
      const json = op.requestBody?.content['application/json'];
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        description: op.description ?? '',
        tag: op.tags?.[0] ?? '',
        parameters,
        requestBody:
          op.requestBody && json
            ? {
                description: op.requestBody.description ?? '',
                contentTypes: Object.keys(op.requestBody.content),
                body: bodyView('application/json', json, deref),
              }
            : undefined,
        responses,
        curl: (op['x-codeSamples'] ?? []).map((s) => s.source),
        subscribe: subscribeExample(op),
        alsoHead: item.head !== undefined,
        allow: item['x-allow'],
      });
    }
  }
  const problems: ProblemView[] = problemTypes().map((p) => {
    const response = doc.components.responses[p.name]!;
    const example = Object.values(response.content?.['application/problem+json']?.examples ?? {})[0]?.value;
    return { status: p.status, slug: p.slug, title: p.title, type: p.type, when: p.when, example: exampleText(example), usedBy: usedBy.get(p.status) ?? [] };
  });
  const schemas: SchemaView[] = Object.entries(doc.components.schemas).map(([name, schema]) => {
    const { type } = typeOf(schema);
    const shape = schema.type === 'array' ? `array of ${typeOf(schema.items as JsonSchema).type}` : type;
    return {
      name,
      description: String(schema.description ?? ''),
      shape,
      fields: schema.type === 'object' && name !== 'OpenApiDocument' ? fieldsOf(schema, deref) : [],
    };
  });
  return {
    title: doc.info.title,
    version: doc.info.version,
    summary: doc.info.summary,
    description: doc.info.description,
    server: doc.servers[0]?.url ?? '/',
    operations,
    problems,
    schemas,
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The document's Markdown subset (`code`, **bold**, `- ` lists, paragraphs) as HTML, everything else escaped. */
export function markdown(text: string): string {
  const blocks = markdownBlocks(text);
  // One paragraph is phrasing content: it goes inside a <p>, <li> or <td> of the page as it is.
  if (blocks.length === 1 && blocks[0]!.startsWith('<p>')) return blocks[0]!.slice(3, -4);
  return blocks.join('\n');
}

/**
 * `text` as markdown's blocks, `lead` (HTML: the operation's summary, a response's status) opening its first
 * paragraph. A description of several paragraphs put inside the page's own <p> after its lead nested paragraphs,
 * which HTML does not allow (a browser closes the first early and leaves a stray </p>).
 */
export function markdownAfter(lead: string, text: string): string {
  const blocks = markdownBlocks(text);
  if (blocks[0]?.startsWith('<p>')) blocks[0] = `<p>${lead} ${blocks[0].slice(3)}`;
  else blocks.unshift(`<p>${lead}</p>`);
  return blocks.join('\n');
}

function markdownBlocks(text: string): string[] {
  const inline = (s: string) =>
    escapeHtml(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  const blocks: string[] = [];
  let list: string[] | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push(`<p>${inline(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('- ')) {
      flush();
      list ??= [];
      list.push(line.slice(2));
    } else if (list && line.startsWith('  ')) {
      list[list.length - 1] += ' ' + line.trim();
    } else {
      if (list) blocks.push(`<ul>${list.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`);
      list = null;
      if (line.trim() === '') flush();
      else paragraph.push(line.trim());
    }
  }
  if (list) blocks.push(`<ul>${list.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`);
  flush();
  return blocks;
}

const cache = new Map<string, DocsView>();
/** The view of the document for a base URL (built once per process and base URL). */
export function docsView(serverUrl: string): DocsView {
  let view = cache.get(serverUrl);
  if (!view) {
    view = buildDocsView(buildOpenApiDocument({ serverUrl }));
    cache.set(serverUrl, view);
  }
  return view;
}

/** The example URL of a GET answering text/calendar, as subscribe links; undefined for anything else. */
function subscribeExample(op: OperationObject): SubscribeLinks | undefined {
  const ok = op.responses?.['200'];
  const content = ok && 'content' in ok ? ok.content : undefined;
  if (!content || !Object.keys(content).some((t) => t.startsWith('text/calendar'))) return undefined;
  const url = /https?:\/\/\S+/.exec(op['x-codeSamples']?.[0]?.source ?? '')?.[0];
  return url ? subscribeLinks(url.replace(/['"]$/, '')) : undefined;
}
