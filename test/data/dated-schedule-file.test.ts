/**
 * The dated schedule file (data/hts/dated-schedule.json.gz) read a step at a time: inflated, decoded,
 * then 5,000 rows a step, so that a service reading it for a query of 2025 holds the other
 * requests for a step, not the whole read (server/data/dated-schedule.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { appendRevision, datedSchedulePath, datedScheduleSteps, datedSchedules, emptyDatedSchedule, readDatedSchedule } from '../../server/data/dated-schedule.js';
import { rowsOf } from '../../shared/revisions.js';

const path = datedSchedulePath();
const text = gunzipSync(readFileSync(path)).toString('utf8');
const whole = JSON.parse(text);
const dir = mkdtempSync(join(tmpdir(), 'landed-dated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, gzipSync(content));
  return p;
};

/** The steps of reading `p`: how many times it yielded, and its value. */
function stepsOf(p: string) {
  const steps = datedScheduleSteps(p);
  for (let yields = 0; ; yields++) {
    const r = steps.next();
    if (r.done) return { yields, data: r.value };
  }
}

describe('the dated schedule file read a step at a time', () => {
  it('yields after inflating, after decoding and after every 5,000 rows, and reads what one JSON.parse of the whole file reads', () => {
    expect(whole.rows).toHaveLength(71962);
    const { yields, data } = stepsOf(path);
    // 2 (inflated, decoded), then one per 5,000 rows: 14 (the last 1,962 rows end the read).
    expect(yields).toBe(2 + Math.floor(71962 / 5000));
    expect(data).toEqual(whole);
    expect(readDatedSchedule(path)).toEqual(whole);
  });

  it('reads the same file written with spaces and line breaks between its rows', () => {
    const p = file('spaced.json.gz', JSON.stringify({ ...whole, rows: whole.rows.slice(0, 12000) }, null, 1));
    expect(stepsOf(p).data).toEqual({ ...whole, rows: whole.rows.slice(0, 12000) });
  });

  it('a file cut inside its rows, or with a row that is not JSON, is an error naming the file', () => {
    const cut = file('cut.json.gz', text.slice(0, Math.floor(text.length / 2)));
    expect(() => stepsOf(cut)).toThrow(`${cut}: cannot read the dated schedule (it ends inside its rows)`);
    const at = text.indexOf('[0,null,', text.indexOf('"rows":[') + 20);
    const bad = file('bad.json.gz', `${text.slice(0, at)}[0,nul,${text.slice(at + 8)}`);
    expect(() => stepsOf(bad)).toThrow(`${bad}: cannot read the dated schedule (`);
    const other = file('other.json.gz', JSON.stringify({ format: 2, revisions: [], rows: [] }));
    expect(() => stepsOf(other)).toThrow(`${other}: not a dated schedule of format 1`);
  });

  it('refuses what one JSON.parse of the whole file would: a comma missing, a stray one or junk between rows, where a step ends or not', () => {
    const rows = whole.rows.slice(0, 10000);
    const upTo5000 = JSON.stringify({ ...whole, rows: rows.slice(0, 5000) }).slice(0, -2);
    const after5000 = JSON.stringify(rows.slice(5000)).slice(1);
    expect(stepsOf(file('joined.json.gz', `${upTo5000},${after5000}}`)).data).toEqual({ ...whole, rows });
    const bad = {
      'no comma after row 5,000': `${upTo5000}${after5000}}`,
      'junk after row 5,000': `${upTo5000} junk ,${after5000}}`,
      'a comma after the last row, a step ending there': `${JSON.stringify({ ...whole, rows }).slice(0, -2)},]}`,
      'a comma before the first row': JSON.stringify({ ...whole, rows: rows.slice(0, 10) }).replace('"rows":[', '"rows":[,'),
      'two commas mid-step': JSON.stringify({ ...whole, rows: rows.slice(0, 10) }).replace('],[', '],,['),
    };
    for (const [what, content] of Object.entries(bad)) {
      const p = file('bad-rows.json.gz', content);
      expect(() => stepsOf(p), what).toThrow(`${p}: cannot read the dated schedule (`);
    }
  });

  it("a revision's rows read before another is added are still its rows after (rowsOf shares each row version's object)", () => {
    const data = emptyDatedSchedule();
    const row = (htsno: string) => ({ htsno, indent: 0, description: htsno, general: 'Free' });
    appendRevision(data, [row('0101'), row('0102')], { id: 'a', name: 'A', published: '2025-01-01', policy: null, from: '2025-01-01' });
    const before = rowsOf(data, 0);
    appendRevision(data, [row('0100'), row('0101'), row('0102')], { id: 'b', name: 'B', published: '2025-02-01', policy: null, from: '2025-02-01' });
    expect(rowsOf(data, 0).map((r) => r.htsno)).toEqual(['0101', '0102']);
    expect(rowsOf(data, 1).map((r) => r.htsno)).toEqual(['0100', '0101', '0102']);
    // The versions both revisions hold are the same objects.
    expect(rowsOf(data, 1).slice(1)).toEqual(before);
    expect(rowsOf(data, 1)[1]).toBe(before[0]);
  });

  it('two revisions built at once share one read of the file, each advancing it a step', () => {
    const dated = datedSchedules(path)!;
    const a = dated.scheduleSteps(0);
    const b = dated.scheduleSteps(1);
    let ra = a.next();
    let rb = b.next();
    let turns = 1;
    while (!ra.done || !rb.done) {
      if (!ra.done) ra = a.next();
      if (!rb.done) rb = b.next();
      turns++;
    }
    expect([ra.value.revision, rb.value.revision]).toEqual(['2025 Basic Edition', '2025 Revision 1']);
    // Each revision's own build is about 30 steps of 1,000 rows; the read's 16 steps are shared, not done twice.
    expect(ra.value.size).toBeGreaterThan(25000);
    expect(turns).toBeLessThan(16 + Math.ceil(whole.rows.filter((r: [number, number | null]) => r[0] <= 1 && (r[1] === null || 1 < r[1])).length / 1000) + 5);
  });
});
