/** Section 301 on products of China as a chapter 99 layer: the same amount as the section_301 field, never displaced. */
import { describe, expect, it } from 'vitest';
import { layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();

describe('Section 301 China', () => {
  it('T-shirts 6109.10.00, value 10,000: List 4A 9903.88.15 +7.5% = 750, in section_301 with note 52\'s 1,250', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'CN', date: '2026-11-22' });
    expect(layerOf(r, 's301_china')).toEqual({ program: 's301_china', authority: 'Section 301', heading: '9903.88.15', rate: 7.5, rate_kind: 'add', basis: 'full_value', amount: 750, refundable: false });
    expect(r.section_301).toBe(2000); // every Section 301 action: 750 + note 52 (China +12.5%) 1,250
  });
  it('the caller\'s explicit rate (s301=25): a layer without heading, 2,500', () => {
    expect(layerOf(t.duty({ hts: '6109.10.00', value: 10000, origin: 'CN', s301: '25' }), 's301_china')).toMatchObject({ heading: null, rate: 25, amount: 2500 });
  });
  it('stacks on Section 232: a Chinese car pays both (25% each of 40,000)', () => {
    const r = t.duty({ hts: '8703.23.01', value: 40000, origin: 'CN', date: '2026-11-22' });
    expect(layerOf(r, 's301_china')).toMatchObject({ amount: 10000 });
    expect(layerOf(r, 's232_autos')).toMatchObject({ amount: 10000 });
  });
  it('entries before 2025-01-01: base duty and China 301 only, with a note saying so', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'CN', date: '2024-06-01' });
    expect(r.additional_duties.map((l) => l.program)).toEqual(['s301_china']);
    expect(r.notes.join(' ')).toMatch(/before 2025-01-01/);
    expect(r).toMatchObject({ additional_duty: 750, total_duties_fees: 2434.64 }); // 1,650 + 750 + 34.64
  });
  it('Hong Kong is not China for Section 301', () => {
    expect(layerOf(t.duty({ hts: '6109.10.00', value: 10000, origin: 'HK', date: '2026-11-22' }), 's301_china')).toBeUndefined();
  });
});

describe('lists that name ten-digit lines (issue 28, Why 6)', () => {
  it('N353032: inflatable party decorations 6307.90.9891 from China, 2025-09-15, 10,000: 9903.88.15 7.5% = 750, not 9903.91.01 (whose list names other lines of 6307.90.98)', () => {
    const r = t.duty({ hts: '6307.90.9891', value: 10000, origin: 'CN', date: '2025-09-15' });
    expect(r).toMatchObject({ section_301_heading: '9903.88.15', section_301: 750 });
    expect(layerOf(r, 's301_china')).toMatchObject({ heading: '9903.88.15', rate: 7.5, amount: 750 });
  });
  it('its sibling 6307.90.9842 (surgical masks), whose own footnote cites 9903.91.07, keeps 9903.91.01 (+25%) on 2025-09-15', () => {
    expect(t.duty({ hts: '6307.90.9842', value: 10000, origin: 'CN', date: '2025-09-15' })).toMatchObject({ section_301_heading: '9903.91.01', section_301: 2500 });
  });
});
