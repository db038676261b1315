/** Which fiscal year's MPF/HMF figures an entry date takes, and what the costing record says of it (shared/fees.ts). */
import { describe, expect, test } from 'vitest';
import { feeScheduleOn, feeYearsUsed, mpfCents } from '../../shared/fees.js';

describe('fee figures by entry date', () => {
  test("a date of a fiscal year in the table takes that year's figures and the record says nothing", () => {
    // FY2026 (2025-10-01…2026-09-30): MPF minimum 33.58, maximum 651.50 (CBP Dec. 25-10, 90 FR 34665).
    expect(mpfCents(100, feeScheduleOn('2026-09-30'))).toBe(3358);
    expect(mpfCents(100, feeScheduleOn('2025-10-01'))).toBe(3358);
    // FY2025: minimum 32.71.
    expect(mpfCents(100, feeScheduleOn('2025-09-30'))).toBe(3271);
    expect(feeYearsUsed(['2025-10-01', '2026-09-30', '2024-12-01'])).toBeNull();
  });
  test("a date past the table (FY2027, from 2026-10-01) takes FY2026's figures, and the record says so", () => {
    expect(mpfCents(100, feeScheduleOn('2026-10-01'))).toBe(3358);
    expect(feeYearsUsed(['2026-10-01', '2026-11-22'])).toBe("MPF/HMF figures of FY2026 used for FY2027 (FY2027's adjustment is not yet in the table)");
    expect(feeYearsUsed(['2023-09-30', '2026-12-02'])).toBe(
      "MPF/HMF figures of FY2024 used for FY2023 (FY2023's figures are not in the table) · MPF/HMF figures of FY2026 used for FY2027 (FY2027's adjustment is not yet in the table)",
    );
  });
});
