/** The prebuilt search index (server/data/search-index.ts): used only when built from the files in use, by this code. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSearchIndex, readTradeTerms, scheduleIndexOf, writeSearchIndex } from '../../server/data/search-index.js';
import { ScheduleIndex } from '../../shared/search/schedule-index.js';
import { realTariff } from '../helpers/tariff.js';

const dir = mkdtempSync(join(tmpdir(), 'landed-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'search-index.json');

describe('the prebuilt search index', () => {
  it('is written with its sources and read back answering as an index built now', () => {
    writeSearchIndex(process.env, path);
    const header = JSON.parse(readFileSync(path, 'latin1').split('\n', 1)[0]);
    expect(header).toMatchObject({ format: expect.any(Number), hts: expect.stringMatching(/^[0-9a-f]{64}$/), terms: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const read = readSearchIndex(process.env, path)!;
    expect(read).not.toBeNull();
    const built = ScheduleIndex.build(realTariff().schedule.lines(), readTradeTerms());
    for (const q of ['cotton t-shirts', 'laptop', 'vacuum cleaner']) expect(read.find(q, 10)).toEqual(built.find(q, 10));
  });
  it('is not used when built from other trade terms, another schedule or in another format: the index is built instead', () => {
    const text = readFileSync(path, 'latin1');
    const [head, body] = [text.slice(0, text.indexOf('\n')), text.slice(text.indexOf('\n') + 1)];
    for (const change of [{ terms: '0'.repeat(64) }, { hts: '0'.repeat(64) }, { format: 0 }]) {
      writeFileSync(path, `${JSON.stringify({ ...JSON.parse(head), ...change })}\n${body}`, 'latin1');
      expect(readSearchIndex(process.env, path)).toBeNull();
    }
    writeFileSync(path, 'not an index', 'latin1');
    expect(readSearchIndex(process.env, path)).toBeNull();
    // The engine still answers: from an index built from the schedule.
    expect(scheduleIndexOf(realTariff().schedule, process.env, path)().find('laptop', 1)[0].digits).toMatch(/^8471/);
  });
  it('a missing file is no index', () => {
    expect(readSearchIndex(process.env, join(dir, 'none.json'))).toBeNull();
  });
});
