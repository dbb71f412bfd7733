// The subset of OpenAPI 3.1 the document uses (also what src/api/docs-view.ts and the contract checker read).

export type JsonSchema = { [keyword: string]: unknown };
export type Ref = { $ref: string };
export interface ExampleObject {
  summary?: string;
  description?: string;
  value: unknown;
}
export interface MediaTypeObject {
  schema: JsonSchema;
  examples?: Record<string, ExampleObject>;
}
export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Ref>;
  content?: Record<string, MediaTypeObject>;
  /** The same answer as a page to a person's browser (FORM_PAGE in operations.ts), outside `content`. */
  'x-form-page'?: MediaTypeObject & { contentType: string };
}
export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  description?: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}
export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
export interface OperationObject {
  operationId: string;
  tags?: string[];
  summary: string;
  description?: string;
  parameters?: (ParameterObject | Ref)[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Ref>;
  'x-codeSamples'?: CodeSample[];
}
export const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'] as const;
export type Method = (typeof METHODS)[number];
export type PathItemObject = {
  summary?: string;
  description?: string;
  'x-allow': string;
  /** The answer to a method not in `x-allow`, where it is not components.responses.MethodNotAllowed. */
  'x-method-not-allowed'?: Ref;
} & Partial<Record<Method, OperationObject>>;
export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, HeaderObject>;
  };
  /** Any path under /api/v0/ that `paths` does not list: 404; OPTIONS there is a preflight, so the browser gets to see the 404. */
  'x-unknown-route': { description: string; 'x-allow': string; responses: Record<string, Ref>; options: OperationObject };
}
