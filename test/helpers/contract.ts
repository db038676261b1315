/**
 * Contract checking: every response a test receives from /api/v1 is validated against the
 * OpenAPI document the service publishes (status, body schema, rate-limit headers).
 */
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { expect } from 'vitest';
import { openapi } from '../../server/openapi.js';

const ajv = new Ajv({ strict: false, allErrors: true });
// ajv-formats is CommonJS: under NodeNext its function is the default export's default.
(formats as unknown as { default: (a: Ajv) => void }).default(ajv);
ajv.addSchema(JSON.parse(JSON.stringify(openapi)), 'openapi');

type Doc = Record<string, any>;
const doc = openapi as unknown as Doc;

function deref(o: Doc): Doc {
  return o.$ref ? deref(o.$ref.replace(/^#\//, '').split('/').reduce((a: Doc, k: string) => a[k], doc)) : o;
}

/** The template in the document that a concrete path matches (`/hts/6109` → `/hts/{code}`). */
function template(path: string): string {
  const p = path.replace(/^\/api\/v1/, '').split('?')[0];
  const hit = Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(p));
  if (!hit) throw new Error(`no path in the OpenAPI document matches ${p}`);
  return hit;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** Checks a response against the document: the status is documented, the body fits its schema. */
export function checkContract(method: string, path: string, res: ApiResponse): void {
  const op = doc.paths[template(path)][method.toLowerCase()];
  // A method the path does not have is answered 405 with the methods it has.
  const documented = op ? op.responses[String(res.status)] : res.status === 405 ? doc.components.responses.MethodNotAllowed : undefined;
  expect(documented, `${method} ${path} → ${res.status} is not documented`).toBeDefined();
  const response = deref(documented);
  const schema = response.content?.['application/json']?.schema;
  if (schema) {
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"openapi#/components')));
    const valid = validate(res.body);
    expect(valid, `${method} ${path} → ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  for (const h of Object.keys(response.headers ?? {})) expect(res.headers.has(h), `${method} ${path} → ${res.status} lacks header ${h}`).toBe(true);
}

/** A client bound to a server: every call is contract-checked. */
export function client(base: string, key?: string) {
  return async function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; raw?: string; key?: string | null } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...init.headers };
    const k = init.key === undefined ? key : init.key;
    if (k) headers.authorization = `Bearer ${k}`;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const r = await fetch(base + path, { method, headers, body });
    const text = await r.text();
    const res = { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null };
    if (path.startsWith('/api/v1')) checkContract(method, path, res);
    return res;
  };
}
