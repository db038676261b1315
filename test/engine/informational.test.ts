/**
 * Informational materials (50 U.S.C. 1702(b)(3)): outside every IEEPA duty and, by their headings, Section 122,
 * note 50 (Brazil 301) and note 52; China Section 301 still applies (issue 28, Why 5). Amounts by hand.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('informational materials', () => {
  it('N349155: nursing textbook 4901.99.0010 from China, 2025-05-20, 10,000: 9903.88.15 7.5% = 750 only; 9903.01.22 and 9903.01.31 declared at 0 (was + fentanyl 2,000)', () => {
    const r = t.duty({ hts: '4901.99.0010', value: 10000, origin: 'CN', date: '2025-05-20' });
    expect(r.additional_duties.map((l) => [l.heading, l.rate_kind, l.amount])).toEqual([
      ['9903.88.15', 'add', 750],
      ['9903.01.22', 'exempt', 0],
      ['9903.01.31', 'exempt', 0],
    ]);
    expect(r.additional_duty).toBe(750);
  });
  it('paintings 9701.21.00.00 and posters 4911.91.20.20 from Vietnam, 2026-01-20, 10,000: no reciprocal duty (was 2,000 each); 9903.01.31 at 0', () => {
    for (const hts of ['9701.21.00.00', '4911.91.20.20']) {
      const r = t.duty({ hts, value: 10000, origin: 'VN', date: '2026-01-20' });
      expect(owedOf(r)).toEqual([]);
      expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.31']);
    }
  });
  it('Section 122 (2026-05-01) and notes 50 and 52 (2026-08-01): 9903.03.11; 9903.05.09 and 9903.05.92 for a book from Brazil', () => {
    expect(exemptOf(t.duty({ hts: '4901.99.0010', value: 10000, origin: 'VN', date: '2026-05-01' }))).toEqual(['s122 9903.03.11']);
    const br = t.duty({ hts: '4901.99.0010', value: 10000, origin: 'BR', date: '2026-08-01' });
    expect(owedOf(br)).toEqual([]);
    expect(exemptOf(br)).toEqual(['s301_brazil 9903.05.09', 's301_forced_labor 9903.05.92']);
  });
});
