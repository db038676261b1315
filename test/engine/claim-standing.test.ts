/**
 * Issue 41 point 3: a claim the line does not list is refused for every purpose. 6109.10.00 (cotton
 * T-shirts, general 16.5%) lists S (USMCA) in its special column but not S+. Goods of Mexico entered
 * on 2025-10-01 with claim S+ are charged the general rate, and so owe the IEEPA duty of goods of
 * Mexico (9903.01.01) and MPF like goods that claim nothing: the claim cannot be refused for the rate
 * and granted for the exemptions.
 */
import { describe, expect, it } from 'vitest';
import { realTariff } from '../helpers/tariff.js';

const t = realTariff();
const mexican = (claim: string) => t.duty({ hts: '6109.10.00', value: 5000, origin: 'MX', date: '2025-10-01', claim });

describe('claim S+ on 6109.10.00, whose special column lists S and not S+', () => {
  it('is refused for the rate, the IEEPA exemption and MPF alike, with the rule cited', () => {
    const r = mexican('S+');
    expect(r.duty).toBe(825); // 16.5% of 5,000
    // IEEPA (fentanyl) for goods of Mexico, 25% of 5,000 = 1,250, refundable; it was exempt (9903.01.04 at 0).
    expect(r.additional_duties.map((l) => [l.heading, l.rate_kind, l.amount, l.refundable])).toEqual([['9903.01.01', 'add', 1250, true]]);
    // MPF 0.3464% of 5,000 = 17.32, raised to the FY2026 minimum 33.58; it was 0 (exempt).
    expect(r.mpf).toBe(33.58);
    expect(r.landed_cost).toBe(7108.58); // 5,000 + 825 + 1,250 + 33.58
    expect(r.notes).toContain(
      'Program S+ is not listed for 6109.10.00: the claim is refused for every purpose (HTSUS General Note 3(c)(i); USMCA: General Note 11, 19 CFR part 182): the general rate applies, and the goods take none of the exemptions a granted claim brings (chapter 99 duties; MPF, 19 CFR 24.23(c)).',
    );
    expect(r.notes.join(' ')).not.toMatch(/USMCA-qualifying goods are exempt|No MPF/);
  });

  it('costs exactly as claiming nothing, and claim S (listed) keeps every exemption', () => {
    const [refused, none, listed] = [mexican('S+'), mexican('none'), mexican('S')];
    expect([refused.duty, refused.additional_duty, refused.mpf]).toEqual([none.duty, none.additional_duty, none.mpf]);
    expect([listed.duty, listed.additional_duty, listed.mpf]).toEqual([0, 0, 0]); // Free (S), 9903.01.04 exempt, no MPF
  });
});
