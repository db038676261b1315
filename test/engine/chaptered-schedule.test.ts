/**
 * An older revision's schedule with each chapter built when first asked for (chapteredScheduleSteps)
 * reads exactly as the same rows built whole (scheduleSteps): every line, its full description,
 * rates, footnotes, citations and Section 301 headings, its children, every lookup. On the real
 * rows of today's schedule and of two revisions of 2025.
 */
import { describe, expect, it } from 'vitest';
import { datedSchedulePath, readDatedSchedule } from '../../server/data/dated-schedule.js';
import { buildSchedule, chapteredScheduleSteps, type HtsRow, type Schedule, type TariffLine } from '../../shared/index.js';
import { rowsOf } from '../../shared/revisions.js';
import { finish } from '../../shared/steps.js';
import { htsRows } from '../helpers/tariff.js';

const dated = readDatedSchedule(datedSchedulePath());
const k = (name: string) => dated.revisions.findIndex((r) => r.name === name);

/** What a line says, its children by code. */
const view = (l: TariffLine) => ({
  ...l,
  section301: l.section301.map((h) => h.heading),
  children: l.children.map((c) => c.digits),
});

function same(rows: HtsRow[], revision: string) {
  const whole = buildSchedule(rows, revision);
  const lazy = finish(chapteredScheduleSteps(rows, revision));
  expect(lazy.size).toBe(whole.size);
  // Before any chapter is built: a lookup builds its own.
  expect(lazy.find('61091000')).toEqual(whole.find('61091000'));
  const wholeLines = [...whole.lines()];
  const lazyLines = [...lazy.lines()];
  expect(lazyLines.map((l) => l.digits)).toEqual(wholeLines.map((l) => l.digits));
  for (let i = 0; i < wholeLines.length; i++) expect(view(lazyLines[i])).toEqual(view(wholeLines[i]));
  for (const l of wholeLines) {
    expect(lazy.find(l.digits)?.hts).toBe(whole.find(l.digits)?.hts);
    if (l.digits.length === 10) expect(lazy.find(l.digits.slice(0, 8))?.hts).toBe(whole.find(l.digits.slice(0, 8))?.hts);
    if (l.digits.length <= 6) expect(lazy.tariffLinesUnder(l.digits)).toBe(whole.tariffLinesUnder(l.digits));
    if (l.hts.startsWith('99')) expect(lazy.chapter99(l.hts)).toEqual(whole.chapter99(l.hts));
  }
  return { whole, lazy };
}

describe('a schedule built a chapter at a time', () => {
  it("today's rows (2026 Revision 10): every line and lookup as the whole build's", () => {
    same(htsRows(), '2026 Revision 10');
  });

  it('2025 Basic Edition and 2025 Revision 20: the same', () => {
    for (const name of ['2025 Basic Edition', '2025 Revision 20']) same(rowsOf(dated, k(name)), name);
  });

  it('a chapter whose first row sits under a row of the chapter before, and a chapter in two places: as the whole build', () => {
    const row = (htsno: string, indent: number, description: string, general = ''): HtsRow => ({ htsno, indent, description, general });
    const under = [row('0101', 0, 'Horses:'), row('', 1, 'Live:'), row('0201.10.00', 2, 'Carcasses', 'Free'), row('0202', 0, 'Meat, frozen:'), row('0202.10.00', 1, 'Other', '4%')];
    expect(same(under, 'made up').lazy.find('02011000')?.fullDescription).toBe('Horses > Live > Carcasses');
    const split = [row('0101.21.00', 0, 'Purebred', 'Free'), row('0201.10.00', 0, 'Carcasses', 'Free'), row('0101.29.00', 0, 'Other horses', '4.5%')];
    expect([...same(split, 'made up').lazy.lines()].map((l) => l.digits)).toEqual(['01012100', '02011000', '01012900']);
  });

  it('builds only the chapters asked for: one step list per chapter, none once it is built, none for a chapter the schedule lacks', () => {
    const rows = rowsOf(dated, k('2025 Revision 20'));
    const lazy: Schedule = finish(chapteredScheduleSteps(rows, '2025 Revision 20'));
    const steps = lazy.chapterSteps!('61')!;
    let yields = 0;
    while (!steps.next().done) yields++;
    // Chapter 61 has about 1,000 rows: a step of reading them and the three of resolving its lines.
    expect(yields).toBeGreaterThanOrEqual(3);
    expect(yields).toBeLessThan(8);
    expect(lazy.chapterSteps!('61')).toBeNull();
    expect(lazy.chapterSteps!('77')).toBeNull();
    expect(lazy.find('6109100012')?.rates?.generalText).toBe('16.5%');
  });
});
