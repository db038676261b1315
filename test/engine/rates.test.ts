import { describe, expect, it } from 'vitest';
import { parseRate, type DutyRate } from '../../shared/rates.js';
import { parseSpecialColumn } from '../../shared/special-programs.js';
import { htsRows } from '../helpers/tariff.js';

const components = (r: DutyRate | null) => r?.components.map((c) => (c.type === 'ad_valorem' ? [c.num / c.den, c.qualifier] : [c.centsNum / c.centsDen, c.unit.name, c.per, c.qualifier]));

describe('rate grammar', () => {
  it('Free, ad valorem and fractions of a percent', () => {
    expect(parseRate('Free')?.kind).toBe('free');
    expect(components(parseRate('16.5%'))).toEqual([[0.165, null]]);
    expect(parseRate('33 1/3%')!.components[0]).toMatchObject({ num: 1, den: 3 });
  });
  it.each([
    ['1¢/kg', [[1, 'kg', 1, null]]],
    ['$1.035/kg', [[103.5, 'kg', 1, null]]],
    ['68¢/head', [[68, 'each', 1, null]]],
    ['0.9¢ each', [[0.9, 'each', 1, null]]],
    ['19.8¢/liter', [[19.8, 'liter', 1, null]]],
    ['2.8¢/doz.', [[2.8, 'doz', 1, null]]],
    ['89.6¢/1000', [[89.6, 'each', 1000, null]]],
    ['10¢/kg on drained weight', [[10, 'kg', 1, 'on drained weight']]],
    ['14.27¢/ liter', [[14.27, 'liter', 1, null]]],
    ['$1.32/t, including weight of container', [[132, 't', 1, 'including weight of container']]],
    ['86.1¢/m2of recording surface', [[86.1, 'm2', 1, 'of recording surface']]],
    // Footwear prints pairs with a full stop (6402.19.50, 6404.11.90).
    ['90¢/pr.', [[90, 'pairs', 1, null]]],
  ])('specific %j', (text, expected) => {
    const r = parseRate(text)!;
    expect(r.kind).toBe('specific');
    expect(r.specific).toBe(true);
    expect(components(r)).toEqual(expected);
  });
  it('per thousand pieces with a thousands comma or a count noun, per thou- sand as printed across a line break, per pack', () => {
    // 8448.51.10 and 9209.92.40 (column 2 and general), 9608.99.30 and 9504.40.00 (column 2).
    expect(components(parseRate('$2/1,000 + 60%'))).toEqual([[200, 'each', 1000, null], [0.6, null]]);
    expect(components(parseRate('10¢/1,000 pins + 3.5%'))).toEqual([[10, 'each', 1000, null], [0.035, null]]);
    expect(components(parseRate('$2.50/thou- sand + 40%'))).toEqual([[250, 'thousand', 1, null], [0.4, null]]);
    expect(components(parseRate('$2.50/thou-sand'))).toEqual([[250, 'thousand', 1, null]]);
    // A count noun only after a thousand: per kg of pins is not a rate the schedule prints.
    expect(parseRate('10¢/kg pins')).toMatchObject({ kind: 'text' });
    expect(components(parseRate('10¢/pack + 20%'))).toEqual([[10, 'pack', 1, null], [0.2, null]]);
    // A button's size in lines times its gross is not one quantity: text.
    expect(parseRate('0.3¢/line/ gross + 4.6%')).toMatchObject({ kind: 'text' });
  });
  it('compound rates keep every component', () => {
    const r = parseRate('8.8¢/kg + 20%')!;
    expect(r.kind).toBe('compound');
    expect(components(r)).toEqual([[8.8, 'kg', 1, null], [0.2, null]]);
    expect(components(parseRate('76¢/pr. + 32%'))).toEqual([[76, 'pairs', 1, null], [0.32, null]]);
    expect(components(parseRate('$1.50 each + 45% on the case + 35% on the battery'))).toEqual([
      [150, 'each', 1, null],
      [0.45, 'on the case'],
      [0.35, 'on the battery'],
    ]);
  });
  it.each([
    'The rate applicable to the article of which it is a part or accessory',
    'See additional U.S. note 1',
    'The duty provided in the applicable subheading + 25%',
    '1.4606¢/kg less 0.020668¢/kg for each degree under 100 degrees (and fractions of a degree in proportion) but not less than 0.943854¢/kg',
    'Free, under bond',
    'No change',
  ])('free text stays text: %j', (text) => {
    expect(parseRate(text)).toMatchObject({ kind: 'text', components: [] });
  });

  it('every rate in the schedule (general, special groups, column 2) is typed or explicitly text; none throws', () => {
    const kinds: Record<string, number> = {};
    let cells = 0;
    const check = (text: string) => {
      const r = parseRate(text);
      if (!r) return;
      cells++;
      kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
      // A typed rate must account for the whole text: one component per `+` part, and each
      // component's number is the number printed in its part ($ in dollars, ¢ in cents, % of value).
      if (r.kind !== 'free' && r.kind !== 'text') {
        const parts = r.text.split(/\s*\+\s*/);
        expect(r.components.length).toBe(parts.length);
        r.components.forEach((c, i) => {
          const m = /^(\$)?(\d+(?:\.\d+)?)(?: (\d+)\/(\d+))?/.exec(parts[i])!;
          const printed = Number(m[2]) + (m[3] ? Number(m[3]) / Number(m[4]) : 0);
          const parsed = c.type === 'ad_valorem' ? (100 * c.num) / c.den : ((m[1] ? 0.01 : 1) * c.centsNum) / c.centsDen;
          expect(parsed).toBeCloseTo(printed, 9);
        });
      }
      if (r.kind === 'text') expect(r.components).toEqual([]);
    };
    for (const row of htsRows()) {
      check(row.general ?? '');
      check(row.other ?? '');
      for (const p of parseSpecialColumn(row.special ?? '').programs) if (p.reference === null) check(p.rateText);
    }
    expect(cells).toBeGreaterThan(25_000);
    // The schedule is mostly typed: free text is the chapter 98/99 prose and the sugar polarity scales.
    expect(kinds.ad_valorem + kinds.free + kinds.specific + kinds.compound).toBeGreaterThan(kinds.text * 10);
    expect(kinds.specific).toBeGreaterThan(1000);
    expect(kinds.compound).toBeGreaterThan(300);
  });
});

describe('special column', () => {
  it('reads several groups per cell, spaces in lists and See references', () => {
    const { programs, rest } = parseSpecialColumn('Free (A+,AU,B,BH,CL,CO,D,E,IL,JO,MA,OM,P,PA,PE,S,SG)25% (KR)');
    expect(rest).toBe('');
    expect(programs.find((p) => p.program === 'KR')).toMatchObject({ rateText: '25%', reference: null });
    expect(programs.find((p) => p.program === 'S')).toMatchObject({ rateText: 'Free' });
    const jo = parseSpecialColumn('Free (A+,AU,BH,CL,CO,D,E,IL,KR,MA,OM,P,PA,PE,S,SG) 9.9¢/liter (JO)').programs.find((p) => p.program === 'JO');
    expect(jo?.rate?.kind).toBe('specific');
    const spaced = parseSpecialColumn('Free (A, AU, BH,CL, CO, D, E, IL, JO, K,KR, MA, OM, P,PA, PE, S, SG)').programs.map((p) => p.program);
    expect(spaced).toContain('K');
    expect(spaced).toContain('SG');
    const see = parseSpecialColumn('Free (BH,CL,CO,JO,KR,MA,OM,P,PE,S,SG) See 9822.04.01-9822.04.03 (AU) See 9919.02.01-9919.02.02 (PA)').programs;
    expect(see.find((p) => p.program === 'AU')).toMatchObject({ reference: '9822.04.01-9822.04.03', rate: null });
    expect(see.find((p) => p.program === 'PA')).toMatchObject({ reference: '9919.02.01-9919.02.02' });
  });
  it('a cell without a program list has no programs', () => {
    expect(parseSpecialColumn('Free, under the terms of U.S. note 1(b) to this subchapter').programs).toEqual([]);
    expect(parseSpecialColumn('No change').programs).toEqual([]);
  });
  it('every special cell of chapters 1-97 is read to its end', () => {
    let read = 0;
    for (const row of htsRows()) {
      if (!row.special?.trim() || /^9[89]/.test(row.htsno)) continue;
      const { programs, rest } = parseSpecialColumn(row.special);
      expect({ htsno: row.htsno, rest }).toEqual({ htsno: row.htsno, rest: '' });
      expect(programs.length).toBeGreaterThan(0);
      read++;
    }
    expect(read).toBeGreaterThan(5000);
  });
});
