/**
 * `npm run duty -- 6109.10.00 10000 china [--ocean] [--s301 25] [--date 2026-01-15] [--qty 1200 --unit kg]`
 * prints the estimate as JSON. Exit 2 with the message on bad input.
 */
import { InputError } from '../../shared/index.js';
import { loadTariff } from '../config.js';

const args = process.argv.slice(2);
const positional: string[] = [];
const options: Record<string, string> = {};
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--ocean') options.ocean = '1';
  else if (a.startsWith('--')) {
    const [k, v] = a.includes('=') ? a.slice(2).split('=', 2) : [a.slice(2), args[++i]];
    options[k] = v;
  } else positional.push(a);
}
if (!positional.length) {
  console.error('usage: npm run duty -- HTS [VALUE] [ORIGIN] [--ocean] [--s301 25|7.5|none] [--date YYYY-MM-DD] [--qty N --unit U] [--claim auto|none|usmca|...] [--us_content N] [--patented 1] ...');
  process.exit(2);
}
try {
  const [hts, value, origin] = positional;
  console.log(JSON.stringify(loadTariff().duty({ hts, value, origin, ...options }), null, 2));
} catch (e) {
  if (!(e instanceof InputError)) throw e;
  console.error(`${e.parameter}: ${e.message}`);
  process.exit(2);
}
