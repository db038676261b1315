/** Single lines costed on real schedule lines; every expected number worked out by hand in the comment beside it. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assess } from '../../shared/duty.js';
import { CAVEATS, type DutyRate } from '../../shared/index.js';
import { realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('a line from China: general rate plus Section 301 from the schedule', () => {
  const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'china' });
  it('computes the documented numbers', () => {
    expect(r).toMatchObject({
      hts: '6109.10.00',
      description: 'Of cotton',
      origin: 'china',
      customs_value: 10000,
      duty_rate: '16.5%',
      rate_basis: 'general',
      duty: 1650, // 16.5% × 10,000
      specific_rate: false,
      // Every Section 301 action (issue 30; it was China's lists alone): List 4A 7.5% × 10,000 = 750 and note 52's 1,250 below.
      section_301: 2000,
      section_301_rate: 7.5,
      section_301_heading: '9903.88.15',
      mpf: 34.64, // 0.3464% × 10,000, between 33.58 and 651.50
      hmf: 0,
      // Since 2026-07-24 also Section 301 forced labor (note 52), China +12.5% (9903.05.31): 1,250.
      additional_duty: 2000, // 750 + 1,250
      total_duties_fees: 3684.64, // 1,650 + 2,000 + 34.64
      landed_cost: 13684.64,
      special_program: null,
      hts_revision: '2026 Revision 10',
    });
  });
  it('carries the three caveats', () => {
    for (const c of CAVEATS) expect(r.notes).toContain(c);
  });
});

describe('origins', () => {
  it('Korea takes the KR special rate and no MPF (FTA exemption)', () => {
    const r = t.duty({ hts: '6109.10.00.12', value: 10000, origin: 'Korea' });
    // Note 52 for Korea is 12.5% total (9903.05.70/.71), against the KR rate actually applied (Free): 12.5% × 10,000 = 1,250.
    expect(r).toMatchObject({ origin: 'kr', rate_basis: 'special', special_program: 'KR', duty_rate: 'Free', duty: 0, mpf: 0, additional_duty: 1250, landed_cost: 11250 });
    expect(r.notes.join(' ')).toMatch(/exempt/);
  });
  it('goods of Canada or Mexico with no claim are costed as USMCA goods, and the answer says so; an explicit claim says nothing', () => {
    const auto = t.duty({ hts: '6109.10.00', value: 10000, origin: 'CA' });
    expect(auto.assumptions).toEqual([
      'claim not given: costed as USMCA-originating (program S); claim=none costs goods that do not qualify.',
    ]);
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'CA', claim: 'usmca' }).assumptions).toEqual([]);
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'CA', claim: 'none' }).assumptions).toEqual([]);
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'kr' }).assumptions).toEqual([]);
  });
  it('goods of an embargoed country are costed, and the answer says their import needs an OFAC license (Cuba, North Korea, Iran)', () => {
    // 2402.10.30 column 2: $9.92/kg + 25%: 10 kg, 1,000 → 99.20 + 250 = 349.20.
    const cuba = t.duty({ hts: '2402.10.30', value: 1000, origin: 'CU', qty: 10, unit: 'kg' });
    expect(cuba).toMatchObject({ origin: 'col2', duty: 349.2 });
    expect(cuba.notes).toContain('Imports of goods of Cuba are prohibited without a license from the Office of Foreign Assets Control (Cuban Assets Control Regulations, 31 CFR 515.204): the duty shown is what licensed or exempt goods owe.');
    expect(t.duty({ hts: '2402.10.30', value: 1000, origin: 'KP', qty: 10, unit: 'kg' }).notes.join(' ')).toMatch(/31 CFR 510\.205/);
    expect(t.duty({ hts: '2402.10.30', value: 1000, origin: 'IR', qty: 10, unit: 'kg' }).notes.join(' ')).toMatch(/31 CFR 560\.201/);
    expect(t.duty({ hts: '2402.10.30', value: 1000, origin: 'RU', qty: 10, unit: 'kg' }).notes.join(' ')).not.toMatch(/Office of Foreign Assets Control/);
  });
  it('notes say only what applies: no "program not listed" on a line free to all, no USMCA exemption from an IEEPA duty Section 232 goods never owe', () => {
    // Lumber 4407.11.00.42 (general Free) of Canada on 2025-11-01: Section 232 wood 9903.76.01 +10% = 1,000; no fentanyl duty either way.
    const lumber = t.duty({ hts: '4407.11.00.42', value: 10000, origin: 'CA', date: '2025-11-01' });
    expect(lumber.additional_duties.map((l) => [l.heading, l.amount])).toEqual([['9903.76.01', 1000]]);
    expect(lumber.notes.join(' ')).not.toMatch(/is not listed|USMCA-qualifying goods are exempt/);
    // Named as a country, the origin's note says the claim stands and the line is free to all, not that it was refused.
    const named = t.duty({ hts: '4407.11.00.42', value: 10000, origin: 'Canada', date: '2025-11-01' });
    expect(named.notes[0]).toBe('Canada (CA): trade program S/S+ claimed; the general rate is Free for goods of every origin.');
    expect(t.duty({ hts: '8471.30.01.00', value: 10000, origin: 'HN', claim: 'P' }).notes[0]).toBe('Honduras (HN): trade program P claimed; the general rate is Free for goods of every origin.');
    // T-shirts 6109.10.00 (16.5%) of Canada the same day: USMCA spares them the fentanyl duty, and the note says so.
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'CA', date: '2025-11-01' }).notes).toContain('IEEPA 9903.01.10: USMCA-qualifying goods are exempt.');
  });
  it('Jordan takes JO but still pays MPF', () => {
    // Note 52 for Jordan: +10% (9903.05.50) = 1,000, despite the FTA claim; 1,000 + 34.64 MPF.
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'jo' })).toMatchObject({ special_program: 'JO', duty: 0, mpf: 34.64, additional_duty: 1000, total_duties_fees: 1034.64 });
  });
  it('Canada and Mexico take USMCA (S)', () => {
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'CA' })).toMatchObject({ origin: 'ca', special_program: 'S', duty: 0, mpf: 0 });
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'Mexico' })).toMatchObject({ origin: 'mx', special_program: 'S' });
  });
  it('a special rate that is not Free: KR pays 25% on 8704.21.01.00', () => {
    expect(t.duty({ hts: '8704.21.01.00', value: 40000, origin: 'kr' })).toMatchObject({ rate_basis: 'special', special_program: 'KR', duty_rate: '25%', duty: 10000 });
  });
  it('a program not listed on the line falls back to the general rate, with a note', () => {
    // 0201.10.50 lists no IL: general 26.4% × 5,000 = 1,320
    const r = t.duty({ hts: '0201.10.50', value: 5000, origin: 'il' });
    expect(r).toMatchObject({ rate_basis: 'general', duty_rate: '26.4%', duty: 1320, mpf: 0 });
    expect(r.notes.join(' ')).toMatch(/IL is not listed/);
  });
  it('a quota reference (See 98xx) falls back to the general rate and says so', () => {
    const r = t.duty({ hts: '0201.10.50', value: 5000, origin: 'au' });
    expect(r).toMatchObject({ rate_basis: 'general', duty: 1320, special_program: null });
    expect(r.notes.join(' ')).toMatch(/9822\.04\.01-9822\.04\.03/);
  });
  it('goods of Mexico under a USMCA provision (See 9823.01.01-9823.01.07 (S+)) are Free: 9823.01.01 opens the group with them; Canada still pays the general rate', () => {
    const milk = (origin: string) => t.duty({ hts: '0401.40.25', value: 5000, origin, qty: 1000, unit: 'liter', date: '2026-06-15' });
    const mx = milk('mx');
    expect(mx).toMatchObject({ rate_basis: 'special', special_program: 'S+', duty_rate: 'Free', duty: 0, mpf: 0 });
    expect(mx.notes.join(' ')).toMatch(/goods of Mexico are provided for in 9823\.01\.01 \(Free\)/);
    // 77.2¢/liter × 1,000 liters
    expect(milk('ca')).toMatchObject({ rate_basis: 'general', duty: 772 });
    expect(t.duty({ hts: '0406.10.08', value: 5000, origin: 'MX', qty: 1000, unit: 'kg', date: '2026-06-15' })).toMatchObject({ special_program: 'S+', duty: 0 });
  });
  it('a claim of an ended program (GSP: A, A+, A*) or of another partner\'s program takes the general rate, said: 1.9% × 10,000 = 190', () => {
    const plant = (origin: string, claim: string) => t.duty({ hts: '0602.30.00', value: 10000, origin, claim, date: '2026-06-15' });
    for (const [origin, claim, why] of [['IN', 'A', /GSP expired/], ['HT', 'A*', /GSP expired/], ['CN', 'KR', /covers goods of KR only/], ['CN', 'usmca', /S\/S\+ claimed/], ['CN', 'cafta-dr', /covers goods of CR, DO, SV, GT, HN, NI only/]] as const) {
      const r = plant(origin, claim);
      expect(r).toMatchObject({ rate_basis: 'general', special_program: null, duty: 190 });
      expect(r.notes.join(' ')).toMatch(why);
    }
    // Goods of Korea claiming KORUS keep it; IL also covers the West Bank, Gaza and the QIZs of Jordan and Egypt (General Note 3(a)(v)).
    expect(plant('KR', 'KR')).toMatchObject({ special_program: 'KR', duty: 0 });
    for (const origin of ['IL', 'EG', 'JO', 'PS']) expect(plant(origin, 'IL')).toMatchObject({ special_program: 'IL', duty: 0 });
  });
  it('column 2: Cuba, North Korea, Russia and Belarus, or col2', () => {
    // 6109.10.00 column 2 is 90%: 0.9 × 1,000 = 900; MPF minimum 33.58
    for (const o of ['col2', 'CU', 'North Korea', 'RU', 'Belarus'])
      expect(t.duty({ hts: '6109.10.00', value: 1000, origin: o })).toMatchObject({ origin: 'col2', rate_basis: 'column2', duty_rate: '90%', duty: 900, mpf: 33.58 });
    expect(t.duty({ hts: '6109.10.00', value: 1000, origin: 'CU' }).notes[0]).toBe('Cuba (CU): no normal trade relations; column 2 rate applied.');
  });
  it('any other country takes the general rate; ISO3 codes and accents work', () => {
    expect(t.duty({ hts: '6109.10.00', value: 100, origin: 'VNM' })).toMatchObject({ origin: 'mfn', duty: 16.5 });
    expect(t.duty({ hts: '6109.10.00', value: 100, origin: "Côte d'Ivoire" }).origin).toBe('mfn');
    // The note says which column applied in plain words: a partner's own program (6109.10.00 special Free (... MX ...)), or one claimed but not granted.
    expect(t.duty({ hts: '6109.10.00', value: 100, origin: 'Mexico' })).toMatchObject({ rate_basis: 'special', notes: expect.arrayContaining(['Mexico (MX): trade program S claimed; its special rate applied.']) });
    expect(t.duty({ hts: '6109.10.00', value: 100, origin: 'VN', claim: 'korus' }).notes.slice(0, 2)).toEqual([
      'Vietnam (VN): trade program KR claimed but not granted; general (normal trade relations) rate applied.',
      expect.stringMatching(/^Program KR claimed: it covers goods of KR only/),
    ]);
    expect(t.duty({ hts: '6109.10.00', value: 100, origin: 'DE' }).notes[0]).toMatch(/^Germany \(DE\): no trade program claimed; general \(normal trade relations\) rate applied\.$/);
  });
  it('an unknown origin is an error, not a silent default', () => {
    expect(() => t.duty({ hts: '6109.10.00', value: 100, origin: 'Atlantis' })).toThrow(expect.objectContaining({ parameter: 'origin', code: 'invalid_parameter' }));
  });
});

describe('Section 301 from chapter 99', () => {
  it('EVs: 9903.91.03 +100%', () => {
    expect(t.duty({ hts: '8703.80.00', value: 40000, origin: 'china' })).toMatchObject({ duty: 1000, section_301: 40000, section_301_rate: 100, section_301_heading: '9903.91.03' });
  });
  it('lithium-ion batteries: the highest of 9903.88.15 (7.5%) and 9903.91.06 (25% from 2026-01-01), not the sum; EV batteries under 9903.91.01 in 2025', () => {
    const r = t.duty({ hts: '8507.60.00.90', value: 1000, origin: 'china' });
    // section_301 is every Section 301 action: 250 + note 52's China 12.5% × 1,000 = 125.
    expect(r).toMatchObject({ section_301: 375, section_301_rate: 25, section_301_heading: '9903.91.06' });
    // Before 2026, 9903.91.06 did not yet cover the entry: List 4A applies.
    expect(t.duty({ hts: '8507.60.00.90', value: 1000, origin: 'china', date: '2025-06-01' })).toMatchObject({ section_301: 75, section_301_heading: '9903.88.15' });
    // EV batteries (.10) owed 25% under note 31(b) in 2025, though 2026 Revision 10 no longer cites 9903.91.01: 250.
    expect(t.duty({ hts: '8507.60.00.10', value: 1000, origin: 'china', date: '2025-06-01' })).toMatchObject({ section_301_rate: 25, section_301_heading: '9903.91.01' });
  });
  it('List 1 LEDs: 9903.88.01 is printed "plus 25%" in words and still reads as 25%', () => {
    expect(t.duty({ hts: '8541.41.00.00', value: 1000, origin: 'china' })).toMatchObject({ section_301: 250, section_301_heading: '9903.88.01' });
  });
  it('List 3 furniture: 9903.88.03 +25%', () => {
    // 500, and note 52's 12.5% × 2,000 = 250 (section_301 is every Section 301 action).
    expect(t.duty({ hts: '9403.60.80.40', value: 2000, origin: 'china' })).toMatchObject({ duty: 0, section_301: 750, section_301_heading: '9903.88.03' });
  });
  it('an exclusion heading in effect is reported, not applied', () => {
    const during = t.duty({ hts: '0304.72.50.00', value: 1000, origin: 'china', date: '2026-06-01' });
    // The heading covers entries "through November 9, 2026": the note names that last day.
    expect(during.notes.join(' ')).toMatch(/exclusion under 9903\.88\.69 \(in effect through 2026-11-09\)/);
    expect(t.duty({ hts: '0304.72.50.00', value: 1000, origin: 'china', date: '2026-11-09' }).notes.join(' ')).toMatch(/9903\.88\.69/);
    expect(t.duty({ hts: '0304.72.50.00', value: 1000, origin: 'china', date: '2026-11-10' }).notes.join(' ')).not.toMatch(/9903\.88\.69/);
    const after = t.duty({ hts: '0304.72.50.00', value: 1000, origin: 'china', date: '2026-11-21' });
    expect(after.notes.join(' ')).not.toMatch(/9903\.88\.69/);
  });
  it('the explicit s301 setting wins', () => {
    // s301 sets China's lists; note 52's 12.5% × 10,000 = 1,250 is a Section 301 action too and stays.
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'china', s301: '25' })).toMatchObject({ section_301: 3750, section_301_rate: 25, section_301_heading: null });
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'china', s301: 'none' })).toMatchObject({ section_301: 1250, section_301_rate: 0 });
  });
  it('only for products of China', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'mfn', s301: '25' });
    expect(r.section_301).toBe(0);
    expect(r.notes.join(' ')).toMatch(/only to products of China/);
  });
  it('no Section 301 heading cited: none', () => {
    // No China list: only note 52's 12.5% × 1,000 = 125.
    expect(t.duty({ hts: '8471.30.01.00', value: 1000, origin: 'china' })).toMatchObject({ section_301: 125, section_301_rate: 0, section_301_heading: null });
  });
});

describe('fees', () => {
  it('MPF minimum and maximum per formal entry', () => {
    expect(t.duty({ hts: '8471.30.01.00', value: 5000 }).mpf).toBe(33.58); // 17.32 → minimum
    expect(t.duty({ hts: '8471.30.01.00', value: 200000 }).mpf).toBe(651.5); // 692.80 → maximum
  });
  it('HMF 0.125% for ocean shipments only', () => {
    expect(t.duty({ hts: '8471.30.01.00', value: 10000, ocean: '1' }).hmf).toBe(12.5);
    expect(t.duty({ hts: '8471.30.01.00', value: 10000, ocean: '0' }).hmf).toBe(0);
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'kr', ocean: true })).toMatchObject({ mpf: 0, hmf: 12.5 });
  });
  it('MPF exemptions of 19 CFR 24.23(c) as CBP\'s MPF table reads them: CAFTA-DR when claimed; Israel and the CBERA countries whether or not claimed', () => {
    // 6109.10.00, 10,000: MPF 0.3464% = 34.64 when owed.
    const honduras = t.duty({ hts: '6109.10.00', value: 10000, origin: 'HN', claim: 'P' });
    expect(honduras).toMatchObject({ special_program: 'P', duty: 0, mpf: 0 });
    expect(honduras.notes).toContain('No MPF: goods originating in HN are exempt under the free trade agreement.');
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'HN' })).toMatchObject({ duty: 1650, mpf: 34.64 });
    for (const country of ['HT', 'JM', 'TT']) {
      const r = t.duty({ hts: '6109.10.00', value: 10000, origin: country });
      expect(r).toMatchObject({ rate_basis: 'general', duty: 1650, mpf: 0 });
      expect(r.notes.join(' ')).toMatch(/Caribbean Basin Economic Recovery Act, 19 CFR 24\.23\(c\)\(1\)\(iii\)/);
    }
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'IL', claim: 'none' })).toMatchObject({ duty: 1650, mpf: 0 });
    // IL claimed for goods of Jordan's qualifying industrial zones: Free under IL, MPF owed (only products of Israel are exempt).
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'JO', claim: 'IL' })).toMatchObject({ special_program: 'IL', duty: 0, mpf: 34.64 });
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'CA', claim: 'none' })).toMatchObject({ duty: 1650, mpf: 34.64 });
  });
  it('value 0 means no entry: no fees', () => {
    expect(t.duty({ hts: '6109.10.00', value: 0, ocean: 1 })).toMatchObject({ duty: 0, mpf: 0, hmf: 0, landed_cost: 0 });
  });
  it('uses the figures of the entry date (FY2025: minimum 32.71)', () => {
    expect(t.duty({ hts: '8471.30.01.00', value: 1000, date: '2025-03-01' }).mpf).toBe(32.71);
  });
});

describe('money', () => {
  it('rounds once per amount, half away from zero', () => {
    // 16.5% × 1.00 = 16.5 cents → 17 cents
    expect(t.duty({ hts: '6109.10.00', value: 1 }).duty).toBe(0.17);
    // 16.5% × 1,234.56 = 203.7024 → 203.70; 7.5% × 1,234.56 = 92.592 → 92.59; note 52 12.5% × 1,234.56 = 154.32
    // total 203.70 + 92.59 + 154.32 + 33.58 = 484.19
    expect(t.duty({ hts: '6109.10.00', value: '1234.56', origin: 'china' })).toMatchObject({ duty: 203.7, section_301: 246.91, additional_duty: 246.91, mpf: 33.58, total_duties_fees: 484.19, landed_cost: 1718.75 });
  });
  it('landed_cost = customs_value + total_duties_fees, total = duty + additional duties (301 included) + fees', () => {
    const r = t.duty({ hts: '8507.60.00.10', value: '98765.43', origin: 'china', ocean: 1 });
    expect(Math.round(r.total_duties_fees * 100)).toBe(Math.round(((r.duty ?? 0) + r.additional_duty + r.mpf + r.hmf) * 100));
    expect(Math.round(r.landed_cost * 100)).toBe(Math.round((r.customs_value + r.total_duties_fees) * 100));
  });
});

describe('specific and compound rates', () => {
  it('without a quantity: specific_rate true and duty null', () => {
    const r = t.duty({ hts: '2009.11.00', value: 5000 });
    expect(r).toMatchObject({ duty_rate: '7.85¢/liter', specific_rate: true, duty: null, mpf: 33.58, total_duties_fees: 33.58 });
    expect(r.notes.join(' ')).toMatch(/give qty and unit/);
  });
  it('with a quantity: 1,200 gal × 3.785411784 L × 7.85¢ = 356.59', () => {
    expect(t.duty({ hts: '2009.11.00', value: 5000, qty: 1200, unit: 'gal' }).duty).toBe(356.59);
    expect(t.duty({ hts: '2009.11.00', value: 5000, qty: 1000, unit: 'liter' }).duty).toBe(78.5);
  });
  it('compound: $1.104/kg + 14.9% on 500 kg worth 10,000 = 552 + 1,490', () => {
    expect(t.duty({ hts: '0402.29.50.00', value: 10000, qty: 500, unit: 'kg' })).toMatchObject({ specific_rate: true, duty: 2042 });
    // 1,000 lb = 453.59237 kg × 110.4¢ = 50,076.60¢ + 149,000¢ → 1,990.77
    expect(t.duty({ hts: '0402.29.50.00', value: 10000, qty: 1000, unit: 'lb' }).duty).toBe(1990.77);
  });
  it('per dozen and per thousand', () => {
    expect(t.duty({ hts: '0407.11.00.00', value: 100, qty: 1200, unit: 'each' }).duty).toBe(2.8); // 100 doz × 2.8¢
    expect(t.duty({ hts: '0601.10.15.00', value: 100, qty: 25000, unit: 'pcs' }).duty).toBe(22.4); // 25 × 89.6¢
  });
  it('a quantity without a unit is taken in the rate unit; a measure qualifier is noted', () => {
    const r = t.duty({ hts: '0711.20.18.00', value: 100, qty: 1000 });
    expect(r.duty).toBe(37); // 3.7¢/kg on drained weight × 1,000 kg
    expect(r.notes.join(' ')).toMatch(/taken in kg.*drained weight/);
  });
  it('footwear per pair (76¢/pr. + 32%, 6402.19.50): 500 pairs worth 10,000 = 380 + 3,200', () => {
    expect(t.duty({ hts: '6402.19.50', value: 10000, qty: 500, unit: 'pairs' })).toMatchObject({ duty_rate: '76¢/pr. + 32%', specific_rate: true, duty: 3580 });
  });
  it('tuning pins per thousand (10¢/1,000 pins + 3.5%, 9209.92.40): 5,000 pins worth 1,000 = 0.50 + 35; a pack of cards in column 2 (10¢/pack + 20%, 9504.40.00): 200 packs worth 1,000 from Cuba = 20 + 200', () => {
    expect(t.duty({ hts: '9209.92.40', value: 1000, origin: 'DE', qty: 5000, unit: 'each' })).toMatchObject({ specific_rate: true, duty: 35.5 });
    expect(t.duty({ hts: '9209.92.40', value: 1000, origin: 'DE', qty: 5, unit: 'thousand' }).duty).toBe(35.5);
    expect(t.duty({ hts: '9504.40.00', value: 1000, origin: 'CU', qty: 200, unit: 'pack' })).toMatchObject({ rate_basis: 'column2', duty: 220 });
  });
  it('a rate in two units (4.4¢/liter + 31.4¢/pf. liter) is not computed from one bare qty, and says why', () => {
    const r = t.duty({ hts: '2204.30.00', value: 1000, qty: 100 });
    expect(r.duty).toBeNull();
    expect(r.notes.join(' ')).toMatch(/more than one unit/);
    expect(t.duty({ hts: '9106.10.00', value: 1000, qty: 10 }).duty).toBeNull(); // 36¢ each + 5.6% + 2¢/jewel
  });
  it('units of another dimension are not converted', () => {
    const r = t.duty({ hts: '2009.11.00', value: 100, qty: 10, unit: 'kg' });
    expect(r.duty).toBeNull();
    expect(r.notes.join(' ')).toMatch(/cannot be converted/);
  });
  it('the duty in doubles (a quantity in the rate\'s own unit) equals the exact BigInt one, over every specific rate of the schedule', () => {
    const rates = [...t.schedule.lines()].flatMap((l) => [l.rates?.general, l.rates?.column2]).filter((r): r is DutyRate => !!r?.specific);
    const specificUnit = (r: DutyRate) => r.components.find((c) => c.type === 'specific')!.unit;
    // Mostly what fits in doubles, some that does not (the BigInt path then answers both).
    const decimal = fc.tuple(fc.oneof(fc.bigInt({ min: 1n, max: 100_000n }), fc.bigInt({ min: 1n, max: 10n ** 15n })), fc.integer({ min: 0, max: 4 })).map(([units, scale]) => ({ units, scale }));
    const valueCents = fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10 ** 14 }));
    fc.assert(
      fc.property(fc.constantFrom(...rates), valueCents, decimal, (rate, valueCents, amount) => {
        const unit = specificUnit(rate);
        const own = assess(rate, valueCents, { amount, unit });
        // A copy of the unit is the same size but not the rate's own: the BigInt path converts it.
        const exact = assess(rate, valueCents, { amount, unit: { ...unit } });
        expect(own.cents).toBe(exact.cents);
      }),
      { numRuns: 5000 },
    );
  });
  it('a rate that is another provision\'s (knit ensembles 6103.22.00, sets 8205.90.60) gives no duty and says to cost the goods under that provision', () => {
    for (const hts of ['6103.22.00', '8205.90.60']) {
      const r = t.duty({ hts, value: 1000, origin: 'DE' });
      expect(r.duty).toBeNull();
      expect(r.notes.join(' ')).toMatch(/not a formula but that of another provision: cost the goods .* under that provision's code/);
    }
  });
  it('text rates give no duty and say why', () => {
    const r = t.duty({ hts: '1701.14.05.00', value: 100, qty: 10, unit: 'kg' });
    expect(r.duty).toBeNull();
    expect(r.notes.join(' ')).toMatch(/not a formula/);
  });
});

describe('bad input names the parameter', () => {
  it.each([
    [{ hts: '6109.10.00', value: -1 }, 'value'],
    [{ hts: '6109.10.00', value: 'abc' }, 'value'],
    [{ hts: '6109.10.00', value: Number.NaN }, 'value'],
    [{ hts: '6109.10.00', value: '1e309' }, 'value'],
    [{ hts: '6109.10.00', value: 1, ocean: 'maybe' }, 'ocean'],
    [{ hts: '6109.10.00', value: 1, s301: '30' }, 's301'],
    [{ hts: '6109.10.00', value: 1, date: '2026-02-30' }, 'date'],
    [{ hts: '6109.10.00', value: 1, qty: 0 }, 'qty'],
    [{ hts: '6109.10.00', value: 1, qty: 5, unit: 'furlongs' }, 'unit'],
    [{ hts: '6109.10.00', value: 1, unit: 'kg' }, 'qty'],
    [{ hts: '6109.10.00', value: 1, claim: 'fta!' }, 'claim'],
    [{ hts: '6109.10.00', value: 1, claim: 7 }, 'claim'],
    [{ hts: '6109.10.00', value: 10, us_content: 11 }, 'us_content'],
    [{ hts: '6109.10.00', value: 10, steel_content: -1 }, 'steel_content'],
    [{ hts: '6109.10.00', value: 10, aluminum_content: 'lots' }, 'aluminum_content'],
    [{ hts: '6109.10.00', value: 10, copper_content: 10.01 }, 'copper_content'],
    [{ hts: '6109.10.00', value: 1, part_for: 'truck' }, 'part_for'],
    [{ hts: '6109.10.00', value: 1, patented: 2 }, 'patented'],
    [{ hts: '6109.10.00', value: 1, uk_melted: 'maybe' }, 'uk_melted'],
    [{ hts: '6109.10.00', value: 1, uk_quota: 'x' }, 'uk_quota'],
    [{ hts: '6109.10.00', value: 1, chip_qualifies: -1 }, 'chip_qualifies'],
  ])('%j → %s', (q, parameter) => {
    expect(() => t.duty(q)).toThrow(expect.objectContaining({ code: 'invalid_parameter', parameter }));
  });
  it('a value with a comma is refused with how to write it ("10,000" is ten thousand to some, ten to others)', () => {
    expect(() => t.duty({ hts: '6109.10.00', value: '10,000' })).toThrow(
      'value must be a number of U.S. dollars, 0 or more; got "10,000" (write it without thousands separators and with a decimal point: 10000.50)',
    );
  });
});
