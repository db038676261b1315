/**
 * Issue 38, point 5: for each revision of the dated schedule, a line that changed in it, read and costed on the day
 * before the revision governs (the previous revision) and on its first day. The lines were found by diffing
 * consecutive revisions of USITC's exports; each expected value is the text those exports print, and each amount is
 * worked out from the rates in the comment. Where a revision changed no line of chapters 1-97, its changed line is a
 * chapter 99 heading (its rate text), and the test also checks from the file that no other line changed.
 */
import { describe, expect, it } from 'vitest';
import { datedSchedulePath, readDatedSchedule } from '../../server/data/dated-schedule.js';
import type { HtsRecord } from '../../shared/index.js';
import { datedTariff } from '../helpers/tariff.js';

const data = readDatedSchedule(datedSchedulePath());
const t = datedTariff();
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const fromOf = (name: string) => data.revisions.find((r) => r.name === name)!.from;

type Field = 'general' | 'special' | 'column2' | 'footnotes';
/** A record field on a date, or `absent` when the code is not a line then. */
function field(code: string, date: string, f: Field): string | 'absent' {
  let r: HtsRecord;
  try {
    r = t.record(code, date);
  } catch {
    return 'absent';
  }
  return f === 'footnotes' ? r.footnotes.join(' | ') : (r[f] ?? '');
}

const note16 = 'U.S. note 16 to subchapter III, chapter 99';
const note19 = 'U.S. note 19 to subchapter III, chapter 99';
const plus = (p: string) => `The duty provided in the applicable subheading + ${p}`;
/** [revision, code, field, before, after]: the field as the previous revision and this one print it. */
const CHANGED: [string, string, Field, string, string][] = [
  ['2025 Revision 1', '4420.19.00.00', 'general', 'absent', '3.2%'],
  ['2025 Revision 2', '4015.12.10', 'footnotes', '', 'See 9903.91.05.'],
  ['2025 Revision 3', '9903.01.01', 'general', 'absent', plus('25%')],
  ['2025 Revision 4', '7206.10.00.00', 'footnotes', 'See note 16 to subchapter III, chapter 99 and related tariff provisions for this duty treatment. | See 9903.91.01.', `See ${note16}. | See 9903.91.01.`],
  ['2025 Revision 5', '8302.10.30.00', 'footnotes', 'See 9903.88.15.', `See 9903.88.15. | See ${note19}.`],
  ['2025 Revision 6', '9903.94.01', 'general', 'absent', plus('25%')],
  ['2025 Revision 7', '9903.01.25', 'general', 'absent', plus('10%')],
  ['2025 Revision 8', '9903.01.63', 'general', plus('34%'), plus('84%')],
  ['2025 Revision 9', '9903.01.63', 'general', plus('84%'), plus('125%')],
  // USITC's exports print this unit with and without markup, revision by revision (the parsed rate is the same).
  ['2025 Revision 10', '0806.10.20', 'column2', '$8.83/m3', '$8.83/m<sup>3</sup>'],
  ['2025 Revision 11', '9903.94.05', 'general', 'absent', plus('25%')],
  ['2025 Revision 12', '9903.01.63', 'general', plus('125%'), plus('34%')],
  ['2025 Revision 14', '9903.81.87', 'general', `${plus('25%')}.`, `${plus('50%')}.`],
  ['2025 Revision 15', '0806.10.20', 'column2', '$8.83/m<sup>3</sup>', '$8.83/m3'],
  ['2025 Revision 16', '0901.11.00.35', 'general', 'absent', 'Free'],
  ['2025 Revision 17', '9903.01.10', 'general', plus('25%'), plus('35%')],
  ['2025 Revision 18', '9903.01.77', 'general', 'absent', plus('40%')],
  ['2025 Revision 20', '9903.01.84', 'general', 'absent', plus('25%')],
  ['2025 Revision 23', '9903.02.72', 'general', 'absent', 'The duty provided in the applicable subheading'],
  ['2025 Revision 24', '9903.02.74', 'general', 'absent', 'The duty provided in the applicable subheading'],
  ['2025 Revision 25', '9903.76.01', 'general', 'absent', plus('10%')],
  ['2025 Revision 26', '9903.74.01', 'general', 'absent', plus('25%')],
  ['2025 Revision 27', '9903.01.24', 'general', plus('20%'), plus('10%')],
  ['2025 Revision 29', '9903.02.78', 'general', 'absent', 'The duty provided in the applicable subheading'],
  ['2025 Revision 30', '9903.01.90', 'general', 'absent', 'The duty provided in the applicable subheading'],
  ['2025 Revision 32', '9903.02.79', 'general', 'absent', 'The duty provided in the applicable subheading'],
  ['2026 Basic Edition', '0201.10.50', 'special', 'Free (BH,CL,CO,JO,MA,OM,P,PE,S,SG) 1.7% (KR) See 9822.04.01-9822.04.03 (AU) See 9919.02.01-9919.02.02 (PA)', 'Free (BH,CL,CO,JO,KR,MA,OM,P,PE,S,SG) See 9822.04.01-9822.04.03 (AU) See 9919.02.01-9919.02.02 (PA)'],
  ['2026 Revision 1', '9903.79.01', 'general', 'absent', 'The duty provided in the applicable subheading +25%'],
  ['2026 Revision 2', '0201.30.50.91', 'general', 'absent', '4.4¢/kg'],
  ['2026 Revision 3', '7602.00.00.35', 'general', 'absent', 'Free'],
  ['2026 Revision 4', '8501.71.00.00', 'footnotes', 'See 9903.45.25 and 9903.88.02.', 'See 9903.88.02.'],
  ['2026 Revision 5', '7206.10.00.00', 'footnotes', `See ${note16}. | See 9903.91.01.`, 'See 9903.91.01.'],
  // 9903.82.01 (the zero-metal-content carve-out) is in Revision 5, not in 6, again in 7 (revision_dates.csv).
  ['2026 Revision 6', '9903.82.01', 'general', 'No change', 'absent'],
  ['2026 Revision 7', '9903.82.01', 'general', 'absent', 'No change'],
  ['2026 Revision 9', '0806.10.20', 'column2', '$8.83/m3', '$8.83/m<sup>3</sup>'],
  ['2026 Revision 10', '9903.82.20', 'general', 'absent', 'The duty provided in the applicable subheading + a duty of 25%'],
];
/** Revisions that changed no code, rate or footnote of any line (descriptions and notes only): checked below from the file. */
const UNCHANGED = ['2025 Revision 13', '2025 Revision 19', '2025 Revision 21', '2025 Revision 22', '2025 Revision 28', '2025 Revision 31'];

describe('each revision, on each side of the date it governs from', () => {
  it('every revision after the first is in one list or the other', () => {
    expect(new Set([...CHANGED.map((c) => c[0]), ...UNCHANGED])).toEqual(new Set(data.revisions.slice(1).map((r) => r.name)));
  });
  it.each(CHANGED)('%s: %s %s', (revision, code, f, before, after) => {
    const from = fromOf(revision);
    expect(field(code, dayBefore(from), f)).toBe(before);
    expect(field(code, from, f)).toBe(after);
    // Costed on each side: each answer names the revision governing its date.
    const k = data.revisions.findIndex((r) => r.name === revision);
    const q = (date: string) => t.duty({ hts: '6109.10.00', value: 1000, origin: 'DE', date });
    expect([q(dayBefore(from)).hts_revision, q(from).hts_revision]).toEqual([data.revisions[k - 1].name, revision]);
  });
  it.each(UNCHANGED)('%s changed no code, rate or footnote of any line', (revision) => {
    const k = data.revisions.findIndex((r) => r.name === revision);
    const key = (r: (typeof data.rows)[number]) => JSON.stringify([r[2], r[6], r[7], r[8], r[9]]);
    const ended = new Set(data.rows.filter((r) => r[1] === k && r[2]).map(key));
    const started = new Set(data.rows.filter((r) => r[0] === k && r[2]).map(key));
    expect(started).toEqual(ended);
  });
});

describe('what the changes cost, worked out from the rates', () => {
  it('2025 Revision 2: medical gloves 4015.12.10 of China gain the footnote of 9903.91.05 (+50%), owed from 2025-01-01 all the same', () => {
    // Note 31(f)(3) lists 4015.12.10 from 2025-01-01 (89 FR 76581); Revision 1 had not printed the footnote yet
    // (SECTION_301_NOTE_31_LINES). Free general rate; 50% of 10,000 = 5,000 on both sides of Revision 2; 0 in 2024.
    const q = (date: string) => t.duty({ hts: '4015.12.10', value: 10000, origin: 'CN', date });
    expect(q('2024-12-31')).toMatchObject({ duty: 0, section_301: 0 });
    expect(q('2025-02-04')).toMatchObject({ hts_revision: '2025 Revision 1', duty: 0, section_301: 5000, section_301_heading: '9903.91.05' });
    expect(q('2025-02-05')).toMatchObject({ hts_revision: '2025 Revision 2', duty: 0, section_301: 5000, section_301_heading: '9903.91.05' });
  });
  it('2026 Basic Edition: beef 0201.10.50 of Korea, 1.7% (KR) until 2025-12-31, then Free', () => {
    // 1.7% of 10,000 = 170.
    const q = (date: string) => t.duty({ hts: '0201.10.50', value: 10000, origin: 'KR', claim: 'KR', date });
    expect(q('2025-12-31')).toMatchObject({ hts_revision: '2025 Revision 32', duty: 170 });
    expect(q('2026-01-01')).toMatchObject({ hts_revision: '2026 Basic Edition', duty: 0 });
  });
  it('2026 Basic Edition: 2504.10.10.00 (natural graphite) of China gains 9903.91.06 (+25%) from 2026-01-01', () => {
    // General rate Free; 25% of 10,000 = 2,500.
    const q = (date: string) => t.duty({ hts: '2504.10.10.00', value: 10000, origin: 'CN', date });
    expect(q('2025-12-31').section_301_heading).not.toBe('9903.91.06');
    expect(q('2026-01-01')).toMatchObject({ section_301_heading: '9903.91.06', section_301_rate: 25 });
  });
  it('2025 Revision 1: 4420.19.00.00 is a line from 2025-02-04 (3.2%), an error naming 4420.19 before', () => {
    // 3.2% of 10,000 = 320.
    expect(t.duty({ hts: '4420.19.00.00', value: 10000, origin: 'DE', date: '2025-02-04' })).toMatchObject({ hts: '4420.19.00.00', duty: 320 });
    expect(() => t.duty({ hts: '4420.19.00.00', value: 10000, origin: 'DE', date: '2025-02-03' })).toThrow(/no code under 4420\.19/);
  });
  it('2025 Revision 16: 0901.11.00.45 ends on 2025-06-30; from 2025-07-01 it is read as 0901.11.00 (Free, the same rates)', () => {
    expect(t.duty({ hts: '0901.11.00.45', value: 10000, origin: 'BR', claim: 'none', date: '2025-06-30' })).toMatchObject({ hts: '0901.11.00.45', duty: 0 });
    const after = t.duty({ hts: '0901.11.00.45', value: 10000, origin: 'BR', claim: 'none', date: '2025-07-01' });
    expect(after).toMatchObject({ hts: '0901.11.00', duty: 0 });
    expect(after.assumptions[0]).toMatch(/^Code 0901\.11\.00\.45 is not in 2025 Revision 16, .*read as 0901\.11\.00\.$/);
  });
});
