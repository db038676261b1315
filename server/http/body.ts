/**
 * Request bodies as Fastify's JSON parser took them: only application/json (any parameters), at
 * most `limit` bytes (refused by its Content-Length before reading, or as soon as more arrives),
 * read as UTF-8 (invalid bytes become U+FFFD), a leading BOM ignored, and an object with an own
 * `__proto__` key, or a `constructor` object with a `prototype`, refused as Fastify's defaults
 * (onProtoPoisoning and onConstructorPoisoning: 'error') refused them: such keys are harmless in
 * what JSON.parse returns but not in code that later copies them onto other objects.
 *
 * Before JSON.parse, one pass over the text bounds its shape (nesting, members of an object,
 * entries of a list, values in all): JSON.parse of 2 MB nested a million deep, or of one object of
 * 150,000 members, costs 0.2-1 s of CPU, and the pass refuses such a body within a few milliseconds.
 * A member name given twice in one object is refused (duplicate_field), as a repeated query
 * parameter is: JSON.parse would keep the last silently.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';
import { stringEnd } from '../json-text.js';

/** The parsed body of `req` (undefined when there was none); rejects with an ApiError. */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => read(req, limit, (err, value) => (err ? reject(err) : resolve(value))));
}

function read(req: IncomingMessage, limit: number, done: (err: Error | null, value?: unknown) => void): void {
  const type = req.headers['content-type'];
  const length = req.headers['content-length'];
  if (type === undefined) {
    // No type and no body: nothing to parse (the handler says what is missing); a body without a type is refused.
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return done(null, undefined);
    return done(unsupported());
  }
  if (mediaType(type) !== 'application/json') return done(unsupported());
  const encoding = req.headers['content-encoding'];
  // A compressed body is not read as if it were plain JSON (nor plain JSON labelled compressed).
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return done(new ApiError('unsupported_media_type', `The body must not be compressed (Content-Encoding ${JSON.stringify(encoding.slice(0, 20))}): send it as plain application/json`));
  if (Number(length) > limit) return done(tooLarge(limit));
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onError);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) return void chunks.push(chunk);
    // Node reads and discards the rest once the answer is sent, so the connection stays usable.
    stop();
    done(tooLarge(limit));
  };
  const onEnd = () => {
    stop();
    let value;
    try {
      // A body that came in one piece (most do, up to 64 kB) is read where it is, not copied first.
      value = parseJson((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString('utf8'));
    } catch (e) {
      return done(e as Error);
    }
    done(null, value);
  };
  const onError = (e: Error) => {
    stop();
    done(e);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
}

function mediaType(header: string): string {
  const semi = header.indexOf(';');
  return (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
}

const unsupported = () => new ApiError('unsupported_media_type', 'The body must be application/json');
const tooLarge = (limit: number) => new ApiError('payload_too_large', `The body exceeds ${limit} bytes (${limit / 1024 / 1024} MB)`, { parameter: 'body', max_bytes: limit });
const notJson = (why: string) => new ApiError('invalid_json', `The body is not valid JSON: ${why}`);

/** Text that may hold a forbidden key, spelled out or escaped: only such bodies are walked after parsing. */
const SUSPECT = /__proto__|constructor|\\u/;

/**
 * The bounds of a body's shape: an order is 3 levels deep, its lines have about 15 fields, and it has
 * at most 1,000 of them; a CAPE declaration request lists up to 20,000 entries of a few fields each
 * (routes/refunds.ts, MAX_CAPE_ENTRIES), so a list may hold 20,000 and a body 100,000 values.
 */
export const MAX_DEPTH = 16;
export const MAX_MEMBERS = 100;
export const MAX_ENTRIES = 20_000;
export const MAX_VALUES = 100_000;
const tooComplex = (what: string, details: Record<string, number>) => new ApiError('body_too_complex', `The body is too complex to read: ${what}`, { parameter: 'body', ...details });

/** Entries seen so far in each open object or list, by depth. */
const widths = new Int32Array(MAX_DEPTH + 1);

/**
 * The body's shape within the bounds, or an ApiError (body_too_complex) as soon as one is passed;
 * how many members its objects have in all (`:` outside strings). The text need not be valid JSON:
 * JSON.parse says so afterwards. Strings are skipped with indexOf, so a pass costs about 0.3 ms for
 * a 1,000-line order.
 */
function shape(text: string): number {
  let depth = 0;
  let values = 0;
  let members = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
      if (i < 0) return members;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (depth === MAX_DEPTH) throw tooComplex(`it is nested more than ${MAX_DEPTH} levels deep`, { max_depth: MAX_DEPTH });
      widths[++depth] = 0;
      if (++values > MAX_VALUES) throw tooComplex(`it holds more than ${MAX_VALUES} values`, { max_values: MAX_VALUES });
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (depth > 0) depth--;
    } else if (c === 44 /* , */) {
      if (++widths[depth] >= MAX_ENTRIES) throw tooComplex(`a list has more than ${MAX_ENTRIES} entries`, { max_entries: MAX_ENTRIES });
      if (++values > MAX_VALUES) throw tooComplex(`it holds more than ${MAX_VALUES} values`, { max_values: MAX_VALUES });
    } else if (c === 58 /* : */) {
      members++;
      if (widths[depth] >= MAX_MEMBERS) throw tooComplex(`an object has more than ${MAX_MEMBERS} members`, { max_members: MAX_MEMBERS });
    }
  }
  return members;
}

/** How many members the parsed objects have in all: fewer than the text's when a name was given twice in one object. */
function memberCount(root: unknown): number {
  let n = 0;
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const e of v) if (e !== null && typeof e === 'object') stack.push(e);
    } else {
      for (const k in v) {
        n++;
        const e = (v as Record<string, unknown>)[k];
        if (e !== null && typeof e === 'object') stack.push(e);
      }
    }
  }
  return n;
}

/** The first member name given twice in one object of a valid JSON text, and the path of its object (`items[3]`, empty for the body). */
function duplicate(text: string): { name: string; at: string } {
  const open: { names: Set<string> | null; index: number; name: string }[] = [];
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = open[open.length - 1];
    if (c === 34) {
      const j = stringEnd(text, i);
      if (expectName && top?.names) {
        const name = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.names.has(name)) {
          let at = '';
          for (let d = 0; d < open.length - 1; d++) at += open[d].names === null ? `[${open[d].index}]` : `${at === '' ? '' : '.'}${open[d].name}`;
          return { name, at };
        }
        top.names.add(name);
        top.name = name;
        expectName = false;
      }
      i = j;
    } else if (c === 123 || c === 91) {
      open.push({ names: c === 123 ? new Set() : null, index: 0, name: '' });
      expectName = c === 123;
    } else if (c === 125 || c === 93) open.pop();
    else if (c === 44 && top) {
      top.index++;
      expectName = top.names !== null;
    }
  }
  return { name: '', at: '' };
}

/** The value of a JSON text; an ApiError (invalid_json) saying where it is not JSON, without echoing it (it may hold a key). */
function parseJson(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) throw notJson('the body is empty');
  const members = shape(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message);
    throw notJson(at ? `unexpected input at character ${at[1]}` : 'it ends too early or is not JSON at all');
  }
  if (SUSPECT.test(text) && hasForbiddenKey(value)) throw notJson('it has a __proto__ key or a constructor.prototype');
  if (members > 0 && memberCount(value) !== members) {
    const { name, at } = duplicate(text);
    const field = at === '' ? name : `${at}.${name}`;
    throw new ApiError('duplicate_field', `The body gives ${JSON.stringify(field.slice(0, 100))} more than once; give each field once`, { parameter: field.slice(0, 100) });
  }
  return value;
}

/** Breadth first, without recursion: a body may be nested hundreds of thousands of levels deep. */
function hasForbiddenKey(root: unknown): boolean {
  let level: unknown[] = [root];
  while (level.length > 0) {
    const next: unknown[] = [];
    for (const node of level) {
      if (node === null || typeof node !== 'object') continue;
      if (Object.hasOwn(node, '__proto__')) return true;
      const c = (node as { constructor?: unknown }).constructor;
      if (Object.hasOwn(node, 'constructor') && c !== null && typeof c === 'object' && Object.hasOwn(c, 'prototype')) return true;
      for (const key in node) next.push((node as Record<string, unknown>)[key]);
    }
    level = next;
  }
  return false;
}
