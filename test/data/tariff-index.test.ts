/**
 * The prebuilt index (server/data/tariff-index.ts), written from the real data files into a
 * temporary folder: read back, it is the schedule and chapter 99 tables built from the files, on
 * every code; an index that was not built from the files a start reads is not used.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ch99Path, readChapter99 } from '../../server/data/ch99.js';
import { readCountries, readCsv, tradePath } from '../../server/data/countries.js';
import { ExportersTable } from '../../server/data/exporters.js';
import { htsPath } from '../../server/data/hts-file.js';
import { loadExporters, loadTariffData, writeIndex } from '../../server/data/tariff-index.js';
import { buildSchedule, Tariff, type Schedule, type TariffLine } from '../../shared/index.js';
import { htsRows } from '../helpers/tariff.js';
import { startServerProcess } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'landed-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The index of the real data files, as `npm run build` writes it. */
const index = join(dir, 'index.json');
writeIndex({}, index);

/** A line as plain data, its children by code: what deep equality compares. */
const plain = (l: TariffLine | undefined) => l && { ...l, children: l.children.map((c) => c.hts) };

describe('the index of the real data files', () => {
  const loaded = loadTariffData({}, index);
  const built = buildSchedule(htsRows(), loaded.schedule.revision);

  it('is used: nothing rebuilt', () => {
    expect(loaded.rebuilt).toBeNull();
    expect(loaded.schedule.revision).toBe('2026 Revision 10');
  });

  it('holds the schedule: every line, in order, field for field; the same lookups for every code', () => {
    const a = [...built.lines()];
    const b = [...loaded.schedule.lines()];
    expect(b.length).toBe(a.length);
    expect(loaded.schedule.size).toBe(built.size);
    const differ = a.filter((line, i) => !isDeepStrictEqual(plain(line), plain(b[i]))).map((l) => l.hts);
    expect(differ).toEqual([]);
    const codes = new Set(a.flatMap((l) => [2, 4, 6, 8, 10].filter((n) => n <= l.digits.length).map((n) => l.digits.slice(0, n))));
    const lookups = (s: Schedule, code: string) => [plain(s.find(code)), s.tariffLinesUnder(code)];
    expect([...codes].filter((c) => !isDeepStrictEqual(lookups(built, c), lookups(loaded.schedule, c)))).toEqual([]);
    const headings = a.filter((l) => l.hts.startsWith('99')).map((l) => l.hts);
    expect(headings.length).toBeGreaterThan(1000);
    expect(headings.filter((h) => !isDeepStrictEqual(built.chapter99(h), loaded.schedule.chapter99(h)))).toEqual([]);
  });

  it('holds the chapter 99 tables as the CSV files read', () => {
    expect(loaded.chapter99).toEqual(readChapter99());
  });

  it('makes a chapter 99 table when a query first reaches a code it names: a line on no product list makes none', () => {
    const fresh = loadTariffData({}, index);
    const made = (table: string) => 'value' in Object.getOwnPropertyDescriptor(fresh.chapter99, table)!;
    const tariff = new Tariff(fresh.schedule, readCountries(), fresh.chapter99, () => '2026-11-21');
    expect(made('programRates')).toBe(true);
    const lists = ['s301BrazilAnnex', 's301ForcedLaborAnnex', 'ieepaReciprocalExempt', 'ieepaDealExemptions', 's122Exempt', 'metalsAnnex', 'metalsPreAnnex', 'vehicles', 'ieepaFentanylCarveouts', 'informationalMaterials'];
    expect(lists.filter(made)).toEqual([]);
    // 6109.10.00 (cotton T-shirts): on no product list. Goods of China (the forced-labor duty of note 52; the
    // reciprocal duty, whose window runs to 2026-02-23), of Germany (the deal lists) and of Brazil (the annex) look
    // their lists up, and the codes the index keeps of each say that no prefix of 6109.10.00 is on it.
    tariff.duty({ hts: '6109.10.00', value: '1000', origin: 'china', date: '2025-06-01' });
    tariff.duty({ hts: '6109.10.00', value: '1000', origin: 'china' });
    tariff.duty({ hts: '6109.10.00', value: '1000', origin: 'germany', date: '2025-09-01' });
    const brazil = tariff.duty({ hts: '6109.10.00', value: '1000', origin: 'brazil' });
    expect(brazil.additional_duties.map((l) => l.program)).toEqual(['s301_brazil', 's301_forced_labor']);
    expect(lists.filter(made)).toEqual([]);
    // 0201.10.05 (bovine carcasses) is on both of Brazil's annexes (the first row of each file): both are made, and exempt it.
    const beef = tariff.duty({ hts: '0201.10.05', value: '1000', origin: 'brazil' });
    expect(lists.filter(made)).toEqual(['s301BrazilAnnex', 's301ForcedLaborAnnex']);
    expect(beef.additional_duties.map((l) => [l.program, l.rate_kind])).toEqual([
      ['s301_brazil', 'exempt'],
      ['s301_forced_labor', 'exempt'],
    ]);
  });

  it("keeps the codes each product list's column names, as the list keys them", () => {
    const fresh = loadTariffData({}, index);
    const csv = readChapter99();
    for (const [table, column] of [
      ['metalsAnnex', 'hts_prefix'],
      ['s301ForcedLaborAnnex', 'hts8'],
      ['ieepaDealExemptions', 'hts8'],
    ] as const)
      expect(fresh.chapter99.codes!(table, column)).toEqual(new Set(csv[table].map((r) => r[column].replace(/\D/g, ''))));
    // A table without such a column: no codes, so a list on it reads its rows.
    expect(fresh.chapter99.codes!('programRates', 'hts_prefix')).toBeUndefined();
    expect(Object.keys(fresh.chapter99)).not.toContain('codes');
  });

  it('gives the same record of every code and the same duty on every line, for several origins and dates', () => {
    const countries = readCountries();
    const today = () => '2026-11-21';
    const full = new Tariff(built, countries, readChapter99(), today);
    const fromIndex = new Tariff(loaded.schedule, countries, loaded.chapter99, today);
    const answer = (f: () => unknown) => {
      try {
        return f();
      } catch (e) {
        return { error: (e as Error).message };
      }
    };
    const differ: string[] = [];
    for (const line of built.lines()) {
      if (!isDeepStrictEqual(answer(() => full.record(line.hts)), answer(() => fromIndex.record(line.hts)))) differ.push(`record ${line.hts}`);
      if (line.digits.length < 8) continue;
      for (const [origin, date] of [['china', '2025-06-01'], ['ru', '2025-06-01'], ['china', '2026-11-21'], ['mexico', '2026-11-21']]) {
        const q = { hts: line.hts, value: '1000', qty: '10', origin, date };
        if (!isDeepStrictEqual(answer(() => full.duty(q)), answer(() => fromIndex.duty(q)))) differ.push(`duty ${line.hts} ${origin} ${date}`);
      }
    }
    expect(differ).toEqual([]);
  });
});

describe('an index not built from the files a start reads is not used', () => {
  /** A copy of the chapter 99 folder, and an index written from it. */
  function copyWithIndex(name: string) {
    const ch99 = join(dir, name);
    cpSync(ch99Path({}), ch99, { recursive: true });
    const index = join(dir, `${name}.json`);
    writeIndex({ CH99_DATA: ch99 }, index);
    return { ch99, index, env: { CH99_DATA: ch99 } };
  }

  it('a table changed since: rebuilt from the files, with the change', () => {
    const { ch99, index, env } = copyWithIndex('changed');
    const file = join(ch99, 'program_rates.csv');
    writeFileSync(file, readFileSync(file, 'utf8').replace('s232_metals', 's232_metalz'));
    const data = loadTariffData(env, index);
    expect(data.rebuilt).toBe(`the prebuilt index was not built from ${file} as it is now`);
    expect(data.chapter99.programRates).toEqual(readCsv(file));
    expect(data.chapter99.programRates).not.toEqual(readChapter99().programRates);
  });

  it('a table changed with its size and time put back: rebuilt (the bytes are compared, not the time)', () => {
    const { ch99, index, env } = copyWithIndex('restored');
    const file = join(ch99, 'program_rates.csv');
    const { atimeMs, mtimeMs, size } = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('s232_metals', 's232_metalz'));
    utimesSync(file, atimeMs / 1000, mtimeMs / 1000);
    expect(statSync(file).size).toBe(size);
    expect(Math.abs(statSync(file).mtimeMs - mtimeMs)).toBeLessThan(0.01);
    expect(loadTariffData(env, index).rebuilt).toBe(`the prebuilt index was not built from ${file} as it is now`);
  });

  it('a table written again with the same bytes (a copy, a checkout): still used', () => {
    const { ch99, index, env } = copyWithIndex('touched');
    const file = join(ch99, 'stacking_rules.csv');
    writeFileSync(file, readFileSync(file));
    utimesSync(file, new Date(), new Date(statSync(file).mtimeMs + 5000));
    expect(loadTariffData(env, index).rebuilt).toBeNull();
  });

  it('another schedule file (HTS_DATA): rebuilt from it', () => {
    const hts = join(dir, 'subset.json.gz');
    writeFileSync(hts, gzipSync(JSON.stringify(htsRows().slice(0, 3000))));
    const data = loadTariffData({ HTS_DATA: hts }, index);
    expect(data.rebuilt).toBe(`the prebuilt index was built from ${htsPath({})}, not ${hts}`);
    expect(data.schedule.size).toBe(buildSchedule(htsRows().slice(0, 3000), '').size);
  });

  it('another format, a file cut short, no file, an engine changed since: rebuilt, saying which', () => {
    const text = readFileSync(index, 'latin1');
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, text.slice(0, text.length - 100), 'latin1');
    expect(loadTariffData({}, cut).rebuilt).toMatch(/is not whole/);
    const other = join(dir, 'other-format.json');
    writeFileSync(other, text.replace(/^\{"format":\d+/, '{"format":0'), 'latin1');
    expect(loadTariffData({}, other).rebuilt).toMatch(/is of format 0/);
    expect(loadTariffData({}, join(dir, 'none.json')).rebuilt).toMatch(/no prebuilt index/);
    expect(loadTariffData({}, dir).rebuilt).toMatch(/unreadable/);
    // Run from source (as here), an engine edited after the index was written: the index is older than the sources.
    const old = join(dir, 'before-the-engine.json');
    writeFileSync(old, text, 'latin1');
    utimesSync(old, new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(loadTariffData({}, old).rebuilt).toMatch(/shared.*changed after the prebuilt index was built/);
  });

  it('a part damaged in place (same size) fails the query that reads it, naming the index; the others still answer', () => {
    const text = readFileSync(index, 'latin1');
    const header = JSON.parse(text.slice(0, text.indexOf('\n')));
    const at = text.indexOf('\n') + 1 + header.chapter99.s301BrazilAnnex[0];
    const damaged = join(dir, 'damaged.json');
    writeFileSync(damaged, `${text.slice(0, at)}x${text.slice(at + 1)}`, 'latin1');
    const data = loadTariffData({}, damaged);
    expect(data.rebuilt).toBeNull();
    const tariff = new Tariff(data.schedule, readCountries(), data.chapter99, () => '2026-11-21');
    expect(tariff.duty({ hts: '6109.10.00', value: '1000', origin: 'china' }).duty).toBe(165);
    // 0201.10.05 is on Brazil's annex: its query reads the damaged part.
    const brazil = () => tariff.duty({ hts: '0201.10.05', value: '1000', origin: 'brazil' });
    expect(brazil).toThrow(/the prebuilt index .*damaged.json is damaged at bytes \d+-\d+ .*npm run build/);
    // Not remembered as read: the same error again, not a list taken as empty.
    expect(brazil).toThrow(/is damaged/);
  });

  it('the service started on other data says so in its log and answers from that data', async () => {
    const hts = join(dir, 'copy.json.gz');
    cpSync(htsPath({}), hts);
    const svc = await startServerProcess({ HTS_DATA: hts, HTS_REVISION: '2026 Revision 10 (copy)' });
    try {
      const warning = svc.logs.map((l) => JSON.parse(l)).find((l) => l.level === 40);
      expect(warning?.msg).toMatch(/built from the data files, not the prebuilt index/);
      expect(warning?.reason).toContain(hts);
      const r = await fetch(`${svc.url}/api/v1/duty?hts=6109.10.00.12&value=100&origin=mx`, { headers: { authorization: `Bearer ${svc.key}` } });
      expect(r.status).toBe(200);
      expect((await r.json()).hts_revision).toBe('2026 Revision 10 (copy)');
    } finally {
      await svc.close();
    }
  });
});

describe('the trade data, checked at start and ranked on first use', () => {
  /** Every chapter, 01 to 99. */
  const chapters = Array.from({ length: 99 }, (_, i) => String(i + 1).padStart(2, '0'));
  /** A chapter's first 50 exporters, or the error's message. */
  const top = (t: ExportersTable, c: string) => {
    try {
      return t.top(c, 50);
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('ranks every chapter as the table read at once does', () => {
    const lazy = ExportersTable.load();
    const eager = ExportersTable.of(readCsv(tradePath({})));
    expect(chapters.filter((c) => !isDeepStrictEqual(top(lazy, c), top(eager, c)))).toEqual([]);
    expect(chapters.filter((c) => typeof top(lazy, c) !== 'string').length).toBeGreaterThan(90);
  });

  it('ranks from the text read at start: the file removed since changes nothing', () => {
    const copy = join(dir, 'exports_by_chapter.csv');
    cpSync(tradePath({}), copy);
    const table = ExportersTable.load(copy);
    rmSync(copy);
    expect(table.top('8471', 3)).toEqual(ExportersTable.of(readCsv(tradePath({}))).top('84', 3));
    expect(table.top('8471', 3).exporters[0].iso3).toBe('CHN');
  });

  it("the index's ranking, read by chapter, is the file's: every chapter, its first 50 exporters and its errors", () => {
    const fromIndex = loadExporters({}, index);
    const fromFile = ExportersTable.load();
    expect(chapters.filter((c) => !isDeepStrictEqual(top(fromIndex, c), top(fromFile, c)))).toEqual([]);
    expect(top(fromIndex, '99')).toMatch(/chapters 98 and 99 are U.S. national provisions/);
  });

  it('another trade file than the index was built from is read and checked at start, a bad one refused', () => {
    const other = join(dir, 'other-trade.csv');
    writeFileSync(other, 'chapter,year,exporter_iso3,exporter_name,value_usd\n84,2024,DEU,Germany,5\n84,2024,CHN,China,3\n');
    expect(loadExporters({ TRADE_DATA: other }, index).top('84', 5).exporters.map((e) => [e.iso3, e.share])).toEqual([
      ['DEU', 0.625],
      ['CHN', 0.375],
    ]);
    writeFileSync(other, 'chapter,year,exporter_iso3,exporter_name,value_usd\n84,2024,DEU\n');
    expect(() => loadExporters({ TRADE_DATA: other }, index)).toThrow(/other-trade.csv: not a readable CSV file \(record 1 has 3 fields, the header 5\)/);
  });
});
