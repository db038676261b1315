/**
 * Query strings read as Fastify read them (fast-querystring), so the gate's rules are unchanged: a
 * name given twice becomes a list (which the gate refuses), `+` is a space, a malformed escape is
 * kept as written, a pair without `=` is a name with an empty value. One pass, and a string is
 * decoded only when it holds `%` or `+`.
 */
export type Query = Record<string, string | string[]>;

/** A record without a prototype: `__proto__` or `constructor` in a query are names like any other. */
function Empty(): void {}
Empty.prototype = Object.create(null);

export function parseQuery(qs: string): Query {
  const out = new (Empty as unknown as new () => Query)();
  let start = 0;
  while (start <= qs.length) {
    let end = qs.indexOf('&', start);
    if (end < 0) end = qs.length;
    const eq = qs.indexOf('=', start);
    const hasValue = eq >= 0 && eq < end;
    const name = decode(qs, start, hasValue ? eq : end);
    if (hasValue || name.length > 0) add(out, name, hasValue ? decode(qs, eq + 1, end) : '');
    start = end + 1;
  }
  return out;
}

function add(out: Query, name: string, value: string): void {
  const had = out[name];
  if (had === undefined) out[name] = value;
  else if (typeof had === 'string') out[name] = [had, value];
  else had.push(value);
}

function decode(qs: string, from: number, to: number): string {
  const s = qs.slice(from, to);
  if (s.indexOf('%') < 0) return s.indexOf('+') < 0 ? s : s.replace(/\+/g, ' ');
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
