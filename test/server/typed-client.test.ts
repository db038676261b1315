/**
 * The document is the contract a generated client is built from: openapi-typescript makes the
 * types of every operation from server/openapi.ts, and a call of each operation through
 * openapi-fetch with only its required fields must type-check (tsc). POST /hts/batch without
 * `limit` among them: a `default` on it once made the generator require it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/data/paths.js';
import { openapi } from '../../server/openapi.js';

const dir = mkdtempSync(join(projectRoot, 'test', '.typed-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each operation of the document, called with its required fields only. */
const CALLS = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';
const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:1/api/v1', headers: { authorization: 'Bearer lk_x' } });
export async function every(): Promise<unknown[]> {
  return [
    await api.GET('/duty', { params: { query: { hts: '6109.10.00' } } }),
    await api.GET('/hts', { params: { query: { q: 'cotton' } } }),
    await api.POST('/hts/batch', { body: { queries: ['cotton'] } }),
    await api.GET('/hts/{code}', { params: { path: { code: '6109' } } }),
    await api.GET('/exporters', { params: { query: { hts: '8471' } } }),
    await api.POST('/duty/bulk', { body: { items: [{ hts: '6109.10.00' }] } }),
    await api.POST('/duty/batch', { body: { queries: [{ hts: '6109.10.00' }] } }),
    await api.GET('/openapi.json'),
    await api.POST('/refunds/cape', { body: { entries: [{ entry_number: 'ABC-1234567-6', entry_date: '2025-05-20' }] } }),
  ];
}
`;

describe('a client generated from the document', () => {
  it('calls every operation with only its required fields, type-checked', async () => {
    const paths = Object.entries(openapi.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((method) => `${method.toUpperCase()} ${path}`));
    // Every operation of the document is called below (a new one must be added here).
    for (const op of paths) expect(CALLS, op).toContain(`api.${op.split(' ')[0]}('${op.split(' ')[1]}'`);
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(JSON.parse(JSON.stringify(openapi)))));
    writeFileSync(join(dir, 'calls.ts'), CALLS);
    const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', join(dir, 'calls.ts')];
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, ...args], { encoding: 'utf8', cwd: projectRoot });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout);
    }
    expect(output).toBe('');
  }, 120_000);

  it('the same calls with a required field left out do not compile (the check can fail)', async () => {
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(JSON.parse(JSON.stringify(openapi)))));
    writeFileSync(join(dir, 'bad.ts'), CALLS.replace("{ body: { queries: ['cotton'] } }", '{ body: { limit: 3 } }'));
    const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', join(dir, 'bad.ts')], { encoding: 'utf8', cwd: projectRoot });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout);
    }
    expect(output).toMatch(/queries/);
  }, 120_000);
});
