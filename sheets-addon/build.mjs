// Builds the Apps Script project in dist/sheets: Code.js, appsscript.json and Sidebar.html.
//
// Apps Script runs one global scope and calls custom functions, menu items, triggers and
// google.script.run targets by the name of a top-level `function`; Sheets reads the JSDoc
// (`@customfunction`) above those declarations for autocomplete. esbuild's output wraps every
// function in a module scope, so the library is bundled as an IIFE assigned to the global `Landed`
// and a thin top-level wrapper is generated, JSDoc and all, for each function exported by the
// files that main.ts re-exports.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build as esbuild } from 'esbuild';
import ts from 'typescript';

export const DEFAULT_API_ORIGIN = 'https://landed.example.com/';
const GLOBAL = 'Landed';

/** `https://api.example.com/v1` → `https://api.example.com/` (what urlFetchWhitelist takes). */
export function apiOrigin(input) {
  let url;
  try {
    url = new URL(input);
  } catch {
    throw new Error(`SHEETS_API_ORIGIN must be a URL such as ${DEFAULT_API_ORIGIN}; got ${JSON.stringify(input)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`SHEETS_API_ORIGIN must be an https URL; got ${JSON.stringify(input)}`);
  return `${url.origin}/`;
}

/** The exported functions of a TypeScript file: name, parameter names and JSDoc text. */
export function exportedFunctions(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  for (const node of source.statements) {
    if (!ts.isFunctionDeclaration(node) || !node.name) continue;
    if (!node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const comments = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
    const jsdoc = comments.map((c) => text.slice(c.pos, c.end)).filter((c) => c.startsWith('/**')).pop() ?? '';
    found.push({ name: node.name.text, params: node.parameters.map((p) => p.name.getText(source)), jsdoc });
  }
  return found;
}

/** The files main.ts re-exports with `export * from './x.js'`. */
function entryFiles(src) {
  const main = readFileSync(join(src, 'main.ts'), 'utf8');
  return [...main.matchAll(/^export \* from '\.\/(.+)\.js';$/gm)].map((m) => join(src, `${m[1]}.ts`));
}

function wrapper({ name, params, jsdoc }) {
  const list = params.join(', ');
  return `${jsdoc ? `${jsdoc}\n` : ''}function ${name}(${list}) {\n  return ${GLOBAL}.${name}(${list});\n}\n`;
}

async function bundle(entry, options) {
  const result = await esbuild({ entryPoints: [entry], bundle: true, write: false, target: 'es2019', supported: { bigint: true }, charset: 'utf8', legalComments: 'none', logLevel: 'warning', ...options });
  return result.outputFiles[0].text;
}

/** The origin an earlier build whitelisted in outDir, if any. */
function builtOrigin(outDir) {
  try {
    return JSON.parse(readFileSync(join(outDir, 'appsscript.json'), 'utf8')).urlFetchWhitelist?.[0];
  } catch {
    return undefined;
  }
}

/**
 * @param {string} root the repository
 * @param {{ outDir?: string, apiOrigin?: string }} [options] where to write (default dist/sheets) and
 *   the API origin (default env SHEETS_API_ORIGIN, else the origin of the build already in outDir,
 *   so `npm start` keeps a deployment's, else https://landed.example.com/)
 */
export default async function build(root, options = {}) {
  const src = join(root, 'sheets-addon');
  const outDir = options.outDir ?? join(root, 'dist', 'sheets');
  const origin = apiOrigin(options.apiOrigin ?? process.env.SHEETS_API_ORIGIN ?? builtOrigin(outDir) ?? DEFAULT_API_ORIGIN);
  mkdirSync(outDir, { recursive: true });

  const library = await bundle(join(src, 'main.ts'), { format: 'iife', globalName: GLOBAL, platform: 'neutral', define: { __LANDED_API_ORIGIN__: JSON.stringify(origin) } });
  const functions = entryFiles(src).flatMap(exportedFunctions);
  const code = [`// landed for Google Sheets: built by sheets-addon/build.mjs from sheets-addon/*.ts; do not edit.\n`, library, ...functions.map(wrapper)].join('\n');
  writeFileSync(join(outDir, 'Code.js'), code);

  const client = await bundle(join(src, 'sidebar', 'client.ts'), { format: 'iife', platform: 'browser' });
  const page = readFileSync(join(src, 'sidebar', 'Sidebar.html'), 'utf8');
  if (!page.includes('<!-- @client -->')) throw new Error('sidebar/Sidebar.html lacks the <!-- @client --> placeholder');
  writeFileSync(join(outDir, 'Sidebar.html'), page.replace('<!-- @client -->', () => `<script>\n${client.replace(/<\/script/gi, '<\\/script')}</script>`));

  const manifest = JSON.parse(readFileSync(join(root, 'appsscript.json'), 'utf8'));
  manifest.urlFetchWhitelist = [origin];
  writeFileSync(join(outDir, 'appsscript.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { outDir, apiOrigin: origin, functions: functions.map((f) => f.name) };
}

// `node sheets-addon/build.mjs` builds on its own.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await build(join(dirname(new URL(import.meta.url).pathname), '..'));
