/**
 * `data:update` against a local HTTP server standing in for USITC: it serves a real subset of the
 * schedule as revisions 10 and 11 of 2026 (USITC's file names), and a corrupt revision on demand.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { datedSchedulePath, readDatedSchedule } from '../../server/data/dated-schedule.js';
import { readHtsFile } from '../../server/data/hts-file.js';
import { rowsOf } from '../../shared/index.js';
import { projectRoot } from '../../server/data/paths.js';
import { updateSchedule } from '../../server/data/update.js';
import { htsRows } from '../helpers/tariff.js';

const subset = JSON.stringify(htsRows().slice(0, 3000));
let files: Record<string, string> = {};
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = files[req.url!.slice(1)];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('npm run data:update', () => {
  it('downloads the newest revision, validates it and writes it with its revision', async () => {
    files = { 'hts_2026_revision_10_json.json': subset, 'hts_2026_revision_11_json.json': subset };
    const out = join(mkdtempSync(join(tmpdir(), 'landed-update-')), 'hts.json.gz');
    const r = await updateSchedule({ base, out, year: 2026 });
    expect(r).toMatchObject({ revision: '2026 Revision 11', rows: 3000 });
    const loaded = readHtsFile(out);
    expect(loaded.revision).toBe('2026 Revision 11');
    expect(loaded.rows[2].htsno).toBe('0101.21.00');
  });

  it('adds the new revision to the dated schedule, governing from the day of the download (issue 38)', async () => {
    files = { 'hts_2026_revision_10_json.json': subset, 'hts_2026_revision_11_json.json': subset };
    const dir = mkdtempSync(join(tmpdir(), 'landed-update-'));
    const dated = join(dir, 'dated-schedule.json.gz');
    copyFileSync(datedSchedulePath(), dated);
    const r = await updateSchedule({ base, out: join(dir, 'hts.json.gz'), dated, year: 2026 });
    expect(r).toMatchObject({ revision: '2026 Revision 11', dated });
    const data = readDatedSchedule(dated);
    const today = new Date().toISOString().slice(0, 10);
    expect(data.revisions.at(-1)).toEqual({ id: '2026_rev_11', name: '2026 Revision 11', published: today, policy: null, from: today });
    // The new revision reads back as served (its 3,000 rows); Revision 10 is still whole (35,509 rows).
    const k = data.revisions.length - 1;
    expect(rowsOf(data, k).map((row) => row.htsno)).toEqual(htsRows().slice(0, 3000).map((row) => row.htsno));
    expect(rowsOf(data, k - 1)).toHaveLength(35_509);
    // The same release again adds nothing.
    expect((await updateSchedule({ base, out: join(dir, 'hts.json.gz'), dated, year: 2026 })).dated).toBeNull();
  });

  it('falls back to the basic edition, then to last year', async () => {
    files = { 'hts_2025_basic_edition_json.json': subset };
    const out = join(mkdtempSync(join(tmpdir(), 'landed-update-')), 'hts.json.gz');
    expect((await updateSchedule({ base, out, year: 2026 })).revision).toBe('2025 Basic Edition');
  });

  it('a corrupt download keeps the previous schedule (the command exits 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'landed-update-'));
    const out = join(dir, 'hts.json.gz');
    files = { 'hts_2026_revision_10_json.json': subset };
    await updateSchedule({ base, out, year: 2026 });
    const before = readFileSync(out);
    files = { 'hts_2026_revision_10_json.json': subset, 'hts_2026_revision_11_json.json': subset.slice(0, 5000) };
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', join(projectRoot, 'server/cli/data-update.ts')], {
      env: { ...process.env, HTS_UPDATE_BASE: base, HTS_UPDATE_OUT: out },
    });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/previous schedule kept.*not valid JSON/) });
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(readHtsFile(out).revision).toBe('2026 Revision 10');
    expect(existsSync(`${out}.download`)).toBe(false);
  });

  it('a meta file that does not describe the file (a crash between the two writes) is not believed', async () => {
    files = { 'hts_2026_revision_10_json.json': subset };
    const out = join(mkdtempSync(join(tmpdir(), 'landed-update-')), 'hts.json.gz');
    await updateSchedule({ base, out, year: 2026 });
    expect(readHtsFile(out).revision).toBe('2026 Revision 10');
    writeFileSync(out, gzipSync(JSON.stringify(htsRows().slice(0, 2000))));
    expect(readHtsFile(out).revision).toBe('unknown revision');
  });

  it('nothing published: an error, and no file written', async () => {
    files = {};
    const out = join(mkdtempSync(join(tmpdir(), 'landed-update-')), 'hts.json.gz');
    await expect(updateSchedule({ base, out, year: 2026 })).rejects.toThrow(/no HTS release found/);
    expect(existsSync(out)).toBe(false);
  });
});
