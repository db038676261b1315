/**
 * Issue 38: each entry costed on the revision of the schedule in force on its date (docs/data.md), read from the
 * dated schedule (data/hts/dated-schedule.json.gz). Figures worked out from the revisions' own rows.
 */
import { describe, expect, it } from 'vitest';
import { datedSchedulePath, datedSchedules, readRevisions } from '../../server/data/dated-schedule.js';
import { buildSchedule, governingRevision, Tariff } from '../../shared/index.js';
import { readChapter99 } from '../../server/data/ch99.js';
import { readCountries } from '../../server/data/countries.js';
import { datedTariff, htsRows, layerOf } from '../helpers/tariff.js';

const revisions = readRevisions(datedSchedulePath());
const governing = (date: string) => revisions[governingRevision(revisions, date)].name;

describe('which revision governs an entry date', () => {
  it('holds the 43 revisions from 2025 Basic Edition to 2026 Revision 10 in order of the dates they govern from', () => {
    expect(revisions).toHaveLength(43);
    expect(revisions[0]).toMatchObject({ name: '2025 Basic Edition', from: '2025-01-01' });
    expect(revisions.at(-1)).toMatchObject({ name: '2026 Revision 10', published: '2026-06-08', from: '2026-06-08' });
    for (let k = 1; k < revisions.length; k++) expect(revisions[k].from >= revisions[k - 1].from).toBe(true);
  });
  it('a revision governs from its policy date where the tracker gives one, else from its publication', () => {
    // 2025 Revision 7: published 2025-04-02, the reciprocal duty in force 2025-04-05.
    expect(governing('2025-04-04')).toBe('2025 Revision 6');
    expect(governing('2025-04-05')).toBe('2025 Revision 7');
    // 2025 Revision 18 has no policy date: from its publication, 2025-08-07.
    expect(governing('2025-08-06')).toBe('2025 Revision 17');
    expect(governing('2025-08-07')).toBe('2025 Revision 18');
    // 2026 Revision 9, published 2026-05-28, retroactive to 2026-05-01; Revision 8 (editorial) is not in the series.
    expect(governing('2026-04-30')).toBe('2026 Revision 7');
    expect(governing('2026-05-01')).toBe('2026 Revision 9');
    expect(governing('2024-12-31')).toBe('2025 Basic Edition');
    expect(governing('2026-11-21')).toBe('2026 Revision 10');
  });
});

describe('China Section 301 from the footnotes of the revision in force', () => {
  const t = datedTariff();
  it('EV lithium-ion batteries 8507.60.00.10 on 2025-06-01: 25% under 9903.91.01 (2025 Revision 13 cites it)', () => {
    const r = t.duty({ hts: '8507.60.00.10', value: 10000, origin: 'CN', date: '2025-06-01' });
    // 2025 Revision 13 governs (from 2025-05-16); 8507.60.00's footnote: "See 9903.88.15 and 9903.91.01."; 9903.91.01:
    // entries on or after 2024-09-27, "+ 25%", note 31(b) (EV batteries). 25% of 10,000 = 2,500; general 3.4% = 340.
    expect(r).toMatchObject({ hts_revision: '2025 Revision 13', duty: 340, section_301_heading: '9903.91.01', section_301_rate: 25, section_301: 2500 });
    expect(layerOf(r, 's301_china')).toMatchObject({ heading: '9903.91.01', amount: 2500 });
  });
  it('the same line on 2026-01-10 cites 9903.91.06 (2026 Basic Edition): note 31(g), 25% on all lithium-ion batteries from 2026-01-01', () => {
    const r = t.duty({ hts: '8507.60.00.10', value: 10000, origin: 'CN', date: '2026-01-10' });
    expect(r).toMatchObject({ hts_revision: '2026 Basic Edition', section_301_heading: '9903.91.06', section_301: 2500 });
  });
  it('other lithium-ion batteries 8507.60.00.20: 7.5% under 9903.88.15 in 2025 (CBP ruling NY N314994), 25% under 9903.91.06 from 2026-01-01', () => {
    // 9903.91.01 is cited on the 8-digit line, but note 31(b) names only 8507.60.0010: List 4A's 7.5% of 10,000 = 750.
    const r = t.duty({ hts: '8507.60.00.20', value: 10000, origin: 'CN', date: '2025-06-01' });
    expect(r).toMatchObject({ hts_revision: '2025 Revision 13', section_301_heading: '9903.88.15', section_301_rate: 7.5, section_301: 750 });
    expect(layerOf(r, 's301_china')).toMatchObject({ heading: '9903.88.15', amount: 750 });
    expect(r.statistical_suffix_needed).toBeFalsy();
    // Note 31(g), from 2026-01-01: 25% = 2,500; in 2026 Revision 10 the line is split into .30 and .90, all of 8507.60 being listed.
    expect(t.duty({ hts: '8507.60.00.20', value: 10000, origin: 'CN', date: '2026-01-10' })).toMatchObject({ hts_revision: '2026 Basic Edition', section_301_heading: '9903.91.06', section_301: 2500 });
    expect(t.duty({ hts: '8507.60.00.90', value: 10000, origin: 'CN', date: '2026-11-21' })).toMatchObject({ hts_revision: '2026 Revision 10', section_301_heading: '9903.91.06', section_301_rate: 25 });
    // The 8-digit code alone in 2025: the highest cited, and the answer says the suffix decides.
    const eight = t.duty({ hts: '8507.60.00', value: 10000, origin: 'CN', date: '2025-06-01' });
    expect(eight).toMatchObject({ section_301_heading: '9903.91.01', section_301: 2500 });
  });
  it('medical gloves 4015.12.10 in 2025: 50% under 9903.91.05 (cited from 2025 Revision 2 to 2026 Basic Edition)', () => {
    const r = t.duty({ hts: '4015.12.10', value: 10000, origin: 'CN', date: '2025-06-01' });
    // General rate Free; 9903.91.05: entries on or after 2025-01-01, "+ 50%", note 31(f): 50% of 10,000 = 5,000.
    expect(r).toMatchObject({ hts_revision: '2025 Revision 13', duty: 0, section_301_heading: '9903.91.05', section_301_rate: 50, section_301: 5000 });
    // From 2025-01-01, before any revision printed the footnote (2025 Basic Edition), and not in 2024.
    expect(t.duty({ hts: '4015.12.10', value: 10000, origin: 'CN', date: '2025-01-15' })).toMatchObject({ hts_revision: '2025 Basic Edition', section_301_heading: '9903.91.05', section_301: 5000 });
    expect(t.duty({ hts: '4015.12.10', value: 10000, origin: 'CN', date: '2024-12-15' })).toMatchObject({ section_301: 0 });
    // In 2026 the line cites 9903.91.08 (+100%) instead, and note 31(f) no longer lists it.
    const later = t.duty({ hts: '4015.12.10', value: 10000, origin: 'CN', date: '2026-11-21' });
    expect(later).toMatchObject({ hts_revision: '2026 Revision 10', section_301_heading: '9903.91.08', section_301_rate: 100 });
    expect(later.notes.join(' ')).not.toMatch(/9903\.91\.05/);
  });
});

describe('answers name the revision used', () => {
  const t = datedTariff();
  it('GET /hts/{code}?date= is the record as of that date', () => {
    expect(t.record('8507.60.00', '2025-06-01')).toMatchObject({ hts_revision: '2025 Revision 13', footnotes: ['See 9903.88.15 and 9903.91.01.'] });
    expect(t.record('8507.60.00')).toMatchObject({ hts_revision: '2026 Revision 10', footnotes: ['See 9903.88.15 and 9903.91.06.'] });
    expect(() => t.record('8507.60.00', '2025-13-01')).toThrow(/date must be a calendar date/);
  });
  it('a bulk order whose items fall on two revisions costs each on its own and names both', () => {
    const r = t.order({ origin: 'CN', items: [{ hts: '4015.12.10', value: 1000, date: '2025-06-01' }, { hts: '4015.12.10', value: 1000, date: '2026-11-21' }] });
    expect(r.lines.map((l) => ('error' in l ? l.error.message : `${l.hts_revision} ${l.section_301_heading}`))).toEqual(['2025 Revision 13 9903.91.05', '2026 Revision 10 9903.91.08']);
    expect(r.hts_revision).toBe('2025 Revision 13; 2026 Revision 10');
  });
});

describe('codes by date (issue 38, point 3)', () => {
  const t = datedTariff();
  it('a code of 2025 Revision 18 that 2026 Revision 10 does not have is found and costed as it stood then', () => {
    // 8507.60.00.20 ("Other" lithium-ion batteries) was split by 2026 Revision 2. On 2025-08-10 (Revision 18) it is a line
    // of its own, costed at its 8-digit line's 3.4%: 3.4% of 10,000 = 340.
    const r = t.duty({ hts: '8507.60.00.20', value: 10000, origin: 'DE', date: '2025-08-10' });
    expect(r).toMatchObject({ hts: '8507.60.00.20', hts_revision: '2025 Revision 18', duty: 340, assumptions: expect.not.arrayContaining([expect.stringMatching(/not in/)]) });
  });
  it('a code given for a date on which it did not exist, with the same rates: costed on that date\'s line, saying so', () => {
    // 8507.60.00.20 on 2026-06-10: gone from 2026 Revision 10; it was a line of 2026 Revision 1 under 8507.60.00 at 3.4%, the rate
    // of 8507.60.00 now: costed there, 3.4% of 10,000 = 340.
    const r = t.duty({ hts: '8507.60.00.20', value: 10000, origin: 'DE', date: '2026-06-10' });
    expect(r).toMatchObject({ hts: '8507.60.00', hts_revision: '2026 Revision 10', duty: 340 });
    expect(r.assumptions[0]).toBe('Code 8507.60.00.20 is not in 2026 Revision 10, the schedule in force on the entry date; it was a line of 2026 Revision 1 with the rates of 8507.60.00 (general 3.4%): read as 8507.60.00.')
  });
  it('otherwise an error naming that date\'s codes under the same 8 digits, or 6', () => {
    // 4420.19.00.00 is not in 2025's basic edition and no line of 4420.19 is.
    expect(() => t.duty({ hts: '4420.19.00.00', value: 1000, origin: 'DE', date: '2025-01-10' })).toThrow(/is not in 2025 Basic Edition, the schedule in force on the entry date \(it was a line of 2025 Revision 1\); that schedule has no code under 4420\.19\./);
    // 0202.30.80.15 (from 2026 Revision 2) on 2025-01-10: the rates of 0202.30.80 then are not the ones it carried.
    const order = t.order({ origin: 'AU', date: '2025-01-10', items: [{ hts: '0202.30.80.15', value: 1000 }] });
    const line = order.lines[0];
    expect('error' in line && line.error).toMatchObject({ code: 'not_found', details: { parameter: 'items[0].hts', revision: '2025 Basic Edition', codes: ['0202.30.80.00'] } });
  });
});

describe('an older revision built a step at a time (for the server to build it between other requests)', () => {
  it('prepare() yields in steps of about 1,000 rows, then keeps the revision; the query costed on it is the same', () => {
    // A Tariff of its own, so that no other test has built 2025 Revision 20 in it yet.
    const t = new Tariff(buildSchedule(htsRows(), '2026 Revision 10'), readCountries(), readChapter99(), () => '2026-11-21', undefined, datedSchedules(datedSchedulePath()));
    const q = { hts: '8507.60.00.20', value: 10000, origin: 'CN', date: '2025-09-01' };
    const steps = t.prepare(q.date)!;
    let yields = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) yields++;
    // 2025 Revision 20 has about 35,000 rows: a step every 1,000 (cut by chapter, its chapter 99 headings read).
    expect(yields).toBeGreaterThan(30);
    const [k, lines] = r.value;
    expect(revisions[k].name).toBe('2025 Revision 20');
    expect(lines.schedule.revision).toBe('2025 Revision 20');
    // Kept: nothing more to build for that date, nor for another date of the same revision; the
    // chapter of a code is built ahead in a few steps of its own, then it too is built.
    expect(t.prepare(q.date)).toBeNull();
    expect(t.prepare('2025-08-31')).toBeNull();
    const chapter = t.prepare(q.date, [q.hts])!;
    let chapterYields = 0;
    while (!chapter.next().done) chapterYields++;
    expect(chapterYields).toBeGreaterThanOrEqual(3);
    expect(chapterYields).toBeLessThan(10);
    expect(t.prepare(q.date, [q.hts, '8507.60.00.10'])).toBeNull();
    expect(t.prepare(q.date, ['6109.10.00'])).not.toBeNull();
    // Today's schedule needs no build.
    expect(t.prepare('2026-11-21')).toBeNull();
    const built = new Map([[k, lines]]);
    expect(t.duty(q, built)).toEqual(t.duty(q));
    expect(t.duty(q, built)).toMatchObject({ hts_revision: '2025 Revision 20', section_301_heading: '9903.88.15', section_301: 750 });
  });
});
