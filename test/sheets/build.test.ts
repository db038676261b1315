/**
 * The build (sheets-addon/build.mjs, run by `npm run build`): one Code.js whose entry points are
 * top-level function declarations carrying their JSDoc, the manifest with the API origin
 * whitelisted, the sidebar page with its script inlined, and what clasp 3 would push.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import build, { apiOrigin } from '../../sheets-addon/build.mjs';
import { root } from './harness.js';

const CUSTOM_FUNCTIONS = ['DUTY', 'SECTION301', 'S232', 'ADDITIONAL', 'MPF', 'HMF', 'FEES', 'LANDED', 'RATE', 'DESC', 'RESULT', 'EXPORTERS', 'HTS_SEARCH'];
const ENTRY_POINTS = ['onOpen', 'onInstall', 'showSidebar', 'costSelectedOrder', 'getSettings', 'saveSettings', 'testConnection', 'planSelectedOrder', 'getSelectionColumns', 'measureOrderChunk', 'costOrderChunk', 'finishOrder', 'discardOrder', 'checkSelectedRefund'];

let project: string;
let out: string;
let code: string;
beforeAll(async () => {
  // A project folder like the repository: .clasp.json beside dist/sheets.
  project = mkdtempSync(join(tmpdir(), 'landed-sheets-build-'));
  copyFileSync(join(root, '.clasp.json'), join(project, '.clasp.json'));
  out = join(project, 'dist', 'sheets');
  const built = await build(root, { outDir: out, apiOrigin: 'https://duty.example.org/api/' });
  expect(built.functions).toEqual([...CUSTOM_FUNCTIONS, ...ENTRY_POINTS]);
  code = readFileSync(join(out, 'Code.js'), 'utf8');
});
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('Code.js', () => {
  test('declares every entry point as a top-level function of the global scope', () => {
    const context = vm.createContext({});
    vm.runInContext(code, context);
    for (const name of [...CUSTOM_FUNCTIONS, ...ENTRY_POINTS]) expect(typeof context[name], name).toBe('function');
    // Apps Script lists the functions it can call from the source's top-level declarations.
    const declared = [...code.matchAll(/^function (\w+)\(/gm)].map((m) => m[1]);
    expect(declared).toEqual([...CUSTOM_FUNCTIONS, ...ENTRY_POINTS]);
  });

  test('keeps each custom function’s JSDoc, with @customfunction, right above its declaration', () => {
    for (const name of CUSTOM_FUNCTIONS) {
      const jsdoc = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\nfunction ${name}\\(`).exec(code);
      expect(jsdoc, name).not.toBeNull();
      expect(jsdoc![1], name).toMatch(/@customfunction/);
      expect(jsdoc![1], name).toMatch(name === 'HTS_SEARCH' ? /@param \{[^}]+\} words / : /@param \{[^}]+\} hts /);
    }
    expect(code).toMatch(/@param \{string\|Array<Array<string>>\} \[claim\] Preference[^\n]*\n \* @return The duty in dollars[^\n]*\n \* @customfunction\n \*\/\nfunction DUTY\(hts, value, origin, s301, ocean, qty, unit, date, claim\) \{\n {2}return Landed\.DUTY\(hts, value, origin, s301, ocean, qty, unit, date, claim\);\n\}/);
    // Menu items and sidebar calls are not offered as spreadsheet functions.
    for (const name of ENTRY_POINTS) expect(new RegExp(`@customfunction\\n \\*/\\nfunction ${name}\\(`).test(code), name).toBe(false);
  });

  test('carries the API origin it was built for', () => {
    expect(code).toContain('"https://duty.example.org/"');
    expect(code).not.toContain('__LANDED_API_ORIGIN__');
  });
});

test('appsscript.json: V8, the three narrow scopes, the API origin whitelisted', () => {
  const manifest = JSON.parse(readFileSync(join(out, 'appsscript.json'), 'utf8'));
  expect(manifest).toMatchObject({ runtimeVersion: 'V8', urlFetchWhitelist: ['https://duty.example.org/'] });
  expect(manifest.oauthScopes).toEqual([
    'https://www.googleapis.com/auth/spreadsheets.currentonly',
    'https://www.googleapis.com/auth/script.external_request',
    'https://www.googleapis.com/auth/script.container.ui',
  ]);
  // The repository's manifest keeps the default origin; the build writes the chosen one.
  expect(JSON.parse(readFileSync(join(root, 'appsscript.json'), 'utf8')).urlFetchWhitelist).toEqual(['https://landed.example.com/']);
});

test('a later plain build (npm start) into the same folder keeps the address the deployment was built for', async () => {
  const dir = join(project, 'again');
  await build(root, { outDir: dir, apiOrigin: 'https://duty.example.org/' });
  const saved = process.env.SHEETS_API_ORIGIN;
  delete process.env.SHEETS_API_ORIGIN;
  try {
    expect((await build(root, { outDir: dir })).apiOrigin).toBe('https://duty.example.org/');
  } finally {
    if (saved !== undefined) process.env.SHEETS_API_ORIGIN = saved;
  }
  expect(JSON.parse(readFileSync(join(dir, 'appsscript.json'), 'utf8')).urlFetchWhitelist).toEqual(['https://duty.example.org/']);
});

test('SHEETS_API_ORIGIN is read as an origin, and anything else is refused', () => {
  expect(apiOrigin('https://landed.example.com')).toBe('https://landed.example.com/');
  expect(apiOrigin('https://api.example.com:8443/v1/')).toBe('https://api.example.com:8443/');
  expect(() => apiOrigin('landed.example.com')).toThrow(/must be a URL/);
  expect(() => apiOrigin('ftp://landed.example.com/')).toThrow(/must be an https URL/);
});

test('Sidebar.html has its script inlined', () => {
  const html = readFileSync(join(out, 'Sidebar.html'), 'utf8');
  expect(html).not.toContain('<!-- @client -->');
  expect(html).toMatch(/<script>\n[\s\S]*google\.script\.run[\s\S]*<\/script>\n<\/body>/);
});

test('clasp 3 pushes exactly the built files from rootDir dist/sheets', () => {
  const clasp = join(root, 'node_modules', '@google', 'clasp', 'build', 'src', 'index.js');
  const status = JSON.parse(execFileSync(process.execPath, [clasp, 'status', '--json'], { cwd: project, env: { ...process.env, HOME: project } }).toString());
  expect(status.filesToPush.sort()).toEqual(['dist/sheets/Code.js', 'dist/sheets/Sidebar.html', 'dist/sheets/appsscript.json']);
});
