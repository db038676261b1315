// Builds the Excel add-in into dist/excel/ (served by the API server at /excel/):
//   functions.json  generated from the JSDoc @customfunction tags by custom-functions-metadata
//   functions.js    the custom functions, with CustomFunctions.associate calls generated from it
//   taskpane.html|js|css, assets/icon-*.png
//   manifest.xml    the root manifest.xml with its origin replaced by env ADDIN_BASE_URL (else the
//                   origin of the manifest an earlier build wrote, so `npm start` keeps a deployment's)
//   help.html       the functions' reference, what the manifest and every function link to
// Called by scripts/build.mjs (`npm run build`); alone: `node excel-addin/build.mjs`.
import { mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import metadata from 'custom-functions-metadata';

/** The origin the template manifest uses; a deployment's ADDIN_BASE_URL replaces it. */
export const TEMPLATE_ORIGIN = 'https://localhost:8443';
export const ICON_SIZES = [16, 32, 64, 80];

/** `https://host:port/` → `https://host:port`; anything but an https origin is refused (Office loads add-ins over https only). */
export function addinOrigin(input = TEMPLATE_ORIGIN) {
  let url;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error(`ADDIN_BASE_URL must be an https URL such as https://landed.example.com; got ${JSON.stringify(input)}`);
  }
  if (url.protocol !== 'https:') throw new Error(`ADDIN_BASE_URL must use https (Office loads add-ins only over https); got ${input}`);
  if (url.pathname !== '/' || url.search || url.hash) throw new Error(`ADDIN_BASE_URL must be an origin without a path (the add-in is served at /excel/); got ${input}`);
  return url.origin;
}

/** The origin of the manifest an earlier build left in outDir, if any. */
function builtOrigin(outDir) {
  try {
    return /<SourceLocation DefaultValue="(https:\/\/[^/"]+)\/excel\/taskpane\.html"\/>/.exec(readFileSync(join(outDir, 'manifest.xml'), 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * functions.json's parameter types by name. The metadata generator types the TypeScript `unknown`
 * parameters as "any"; Excel converts a cell to the declared type before the call (a text that is
 * no number is #VALUE! at once). hts and s301 stay "any": a code Excel turned into a number must be
 * recognised as such, s301 is 25, 7.5 or a word, and a date is a date serial or YYYY-MM-DD text.
 */
const PARAMETER_TYPES = { hts: 'any', value: 'number', origin: 'string', s301: 'any', ocean: 'boolean', qty: 'number', unit: 'string', header: 'boolean', limit: 'number', date: 'any', claim: 'string', words: 'any', n: 'number' };

export default async function build(root, { outDir = join(root, 'dist', 'excel'), env = process.env } = {}) {
  const src = join(root, 'excel-addin', 'src');
  const origin = addinOrigin(env.ADDIN_BASE_URL || builtOrigin(outDir) || TEMPLATE_ORIGIN);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'assets'), { recursive: true });

  const functionsTs = join(src, 'functions', 'functions.ts');
  const generated = await metadata.generateCustomFunctionsMetadata(functionsTs);
  if (generated.errors.length) throw new Error(`custom-functions-metadata: ${functionsTs}\n${generated.errors.join('\n')}`);
  const meta = JSON.parse(generated.metadataJson);
  for (const f of meta.functions) {
    f.helpUrl = `${origin}/excel/help.html#${f.id}`;
    for (const p of f.parameters) {
      if (!PARAMETER_TYPES[p.name]) throw new Error(`excel-addin/build.mjs: no type for the parameter ${p.name} of ${f.id}`);
      p.type = PARAMETER_TYPES[p.name];
    }
  }
  writeFileSync(join(outDir, 'functions.json'), `${JSON.stringify(meta, null, 2)}\n`);
  writeFileSync(join(outDir, 'help.html'), helpPage(meta));

  // As Microsoft's webpack plugin does: associate each generated id with its function.
  const associate = generated.associate
    .map((a) => `CustomFunctions.associate(${JSON.stringify(a.id)}, functions.${a.functionName});`)
    .join('\n');
  const common = { bundle: true, format: 'iife', target: 'es2020', minify: true, sourcemap: true, logLevel: 'warning' };
  await esbuild({
    ...common,
    stdin: { contents: `import * as functions from './functions.ts';\n${associate}\n`, resolveDir: dirname(functionsTs), sourcefile: 'functions-entry.ts', loader: 'ts' },
    outfile: join(outDir, 'functions.js'),
  });
  await esbuild({ ...common, entryPoints: [join(src, 'taskpane', 'taskpane.ts')], outfile: join(outDir, 'taskpane.js') });
  for (const f of ['taskpane.html', 'taskpane.css']) copyFileSync(join(src, 'taskpane', f), join(outDir, f));

  for (const size of ICON_SIZES) writeFileSync(join(outDir, 'assets', `icon-${size}.png`), icon(size));

  const manifest = readFileSync(join(root, 'manifest.xml'), 'utf8');
  writeFileSync(join(outDir, 'manifest.xml'), manifest.replaceAll(TEMPLATE_ORIGIN, origin));
  return { outDir, origin, functions: generated.associate.map((a) => a.id) };
}

const escape = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The page the manifest's support links and each function's help link open: the functions as functions.json describes them. */
function helpPage(meta) {
  const fn = (f) => {
    const args = f.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ');
    const params = f.parameters.map((p) => `<li><code>${escape(p.name)}</code> (${p.type}${p.optional ? ', optional' : ''}): ${escape(p.description)}</li>`).join('');
    return `<section id="${f.id}"><h2>=TARIFF.${f.id}(${escape(args)})</h2><p>${escape(f.description)}</p><ul>${params}</ul></section>`;
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>landed for Excel: help</title>
<style>body{font:14px/1.5 'Segoe UI',system-ui,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;color:#1f2328}h1{color:#115e59}h2{font-size:16px;margin-top:28px}code{background:#f6f8fa;padding:0 3px}</style></head>
<body><h1>landed for Excel</h1>
<p>U.S. import duty, Section 301, MPF, HMF and landed cost from the official Harmonized Tariff Schedule, served by this landed service. Home › landed › <b>Cost order</b> opens the task pane: paste an API key under Settings and press Test connection. API keys are created by whoever runs this service (<code>npm run keys -- create --label NAME</code> on its server). The pane costs a selected order as one entry and writes the results, totals and a record of the schedule revision, entry date and options beside it.</p>
<p>Results are estimates: antidumping and countervailing duties are not included; a free trade agreement's rate assumes the goods meet its rules of origin; verify with a licensed customs broker. The service's API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
${meta.functions.map(fn).join('\n')}
</body></html>
`;
}

/** The logo: a white "L" on a teal rounded square, anti-aliased by 4×4 supersampling. */
export function icon(size) {
  const inside = (x, y) => {
    const r = 0.2;
    const cx = Math.min(Math.max(x, r), 1 - r);
    const cy = Math.min(Math.max(y, r), 1 - r);
    if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
    const stem = x >= 0.3 && x <= 0.46 && y >= 0.2 && y <= 0.8;
    const foot = x >= 0.3 && x <= 0.74 && y >= 0.64 && y <= 0.8;
    return stem || foot ? [255, 255, 255] : [15, 118, 110];
  };
  const rgba = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++)
        for (let sx = 0; sx < n; sx++) {
          const c = inside((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          if (!c) continue;
          acc[0] += c[0];
          acc[1] += c[1];
          acc[2] += c[2];
          acc[3] += 1;
        }
      const o = (py * size + px) * 4;
      if (acc[3]) for (let k = 0; k < 3; k++) rgba[o + k] = Math.round(acc[k] / acc[3]);
      rgba[o + 3] = Math.round((acc[3] / (n * n)) * 255);
    }
  return png(size, size, rgba);
}

/** A minimal PNG encoder: 8-bit RGBA, no interlace, filter 0 on every row. */
export function png(width, height, rgba) {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const out = await build(root);
  console.log(`excel add-in → ${out.outDir} (${out.origin}; functions ${out.functions.join(', ')})`);
}
