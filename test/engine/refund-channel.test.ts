/**
 * The refund's rules as data (shared/refund-rules.ts) read by shared/refund-channel.ts and
 * shared/entry-number.ts: each entry's channel and deadline, the interest, the entry number's check
 * digit, the CAPE files. Dates and figures worked out by hand below.
 */
import { describe, expect, it } from 'vitest';
import { checkEntryNumber, entryCheckDigit } from '../../shared/entry-number.js';
import { capeCsv, capeDeclaration, channelTotals, entryChannel, refundInterest, type EntryChannel } from '../../shared/refund-channel.js';

const FILING = '2026-05-20';

describe('entryChannel', () => {
  it('CAPE now: unliquidated, extended, suspended, liquidated 80 days before filing; 81 days: protest within 180', () => {
    const e = { entryDate: '2025-09-10' };
    expect(entryChannel({ ...e, liquidationStatus: 'unliquidated' }, FILING).label).toBe('CAPE now');
    expect(entryChannel({ ...e, liquidationStatus: 'extended', liquidationDate: '2025-01-01' }, FILING).label).toBe('CAPE now');
    expect(entryChannel({ ...e, liquidationStatus: 'suspended' }, FILING).label).toBe('CAPE now');
    // 2026-03-01 + 80 days = 2026-05-20 (March 30 + April 30 + May 20).
    expect(entryChannel({ ...e, liquidationDate: '2026-03-01' }, FILING)).toMatchObject({ channel: 'cape', deadline: null, liquidation: { date: '2026-03-01', estimated: false } });
    // 2026-02-28: 81 days; protest by 2026-02-28 + 180 = 2026-08-27 (Mar 31, Apr 30, May 31, Jun 30, Jul 31 = 153, + 27).
    expect(entryChannel({ ...e, liquidationDate: '2026-02-28' }, FILING)).toMatchObject({ channel: 'protest', label: 'Protest by 2026-08-27', deadline: '2026-08-27' });
  });

  it('past 180 days, or status final: court action within two years of liquidation', () => {
    // 2025-11-20 is 181 days before 2026-05-20 (Nov 10, Dec 31, Jan 31, Feb 28, Mar 31, Apr 30, May 20).
    expect(entryChannel({ entryDate: '2025-02-10', liquidationDate: '2025-11-20' }, FILING)).toMatchObject({ channel: 'court', label: 'Final: court action by 2027-11-20' });
    expect(entryChannel({ entryDate: '2025-02-10', liquidationDate: '2026-04-01', liquidationStatus: 'final' }, FILING).label).toBe('Final: court action by 2028-04-01');
  });

  it('no liquidation date: entry date + 314 days, estimated', () => {
    // 2025-06-01 + 314 = 2026-04-11 (Jun 29 + Jul 31 + Aug 31 + Sep 30 + Oct 31 + Nov 30 + Dec 31 + Jan 31 + Feb 28 + Mar 31 = 314 → Apr 11): 39 days before filing.
    const c = entryChannel({ entryDate: '2025-06-01' }, FILING);
    expect(c).toMatchObject({ channel: 'cape', liquidation: { date: '2026-04-11', estimated: true } });
    expect(c.rule).toMatch(/^estimated to liquidate 2026-04-11, 39 days before filing/);
  });

  it('not for CAPE, with why: types 08, 09, 47, reconciliation, drawback, open protest, no IEEPA number, outside the period', () => {
    const e = { entryDate: '2025-09-10', liquidationStatus: 'unliquidated' as const };
    const label = (x: object) => entryChannel({ ...e, ...x }, FILING).label;
    expect(label({ entryType: '08' })).toBe('Not for CAPE (type 08 (duty deferral) entries are outside CAPE)');
    expect(label({ entryType: '9' })).toBe('Not for CAPE (type 09 (reconciliation) entries are outside CAPE)');
    expect(label({ entryType: '47' })).toBe('Not for CAPE (type 47 (drawback) entries are outside CAPE)');
    expect(label({ reconciliation: true })).toBe('Not for CAPE (flagged for reconciliation)');
    expect(label({ drawback: true })).toBe('Not for CAPE (on a drawback claim)');
    expect(label({ openProtest: true })).toBe('Not for CAPE (has an open protest: the refund follows the protest)');
    expect(label({ ieepa: false })).toBe('Not for CAPE (no IEEPA chapter 99 number declared)');
    expect(label({ entryDate: '2026-03-10' })).toBe('Not for CAPE (entered 2026-03-10, outside the IEEPA duties (2025-02-04 to 2026-02-23))');
    expect(label({ entryType: '01' })).toBe('CAPE now');
  });

  it('before CAPE opened (2026-04-20) the channel says from when', () => {
    expect(entryChannel({ entryDate: '2025-09-10' }, '2026-04-19').label).toBe('CAPE from 2026-04-20');
  });
});

describe('channelTotals', () => {
  const channel = (c: EntryChannel['channel'], deadline: string | null, label = ''): EntryChannel => ({ channel: c, label, deadline, liquidation: null, rule: '' });
  it('sums each channel in cents; CAPE first, then the earliest deadline, a protest before a court action due the same day, not for CAPE last', () => {
    const totals = channelTotals([
      { channel: channel('not_cape', null, 'Not for CAPE (type 08)'), refundCents: 0, interestCents: 0 },
      { channel: channel('court', '2026-08-27'), refundCents: 500, interestCents: 7 },
      { channel: channel('protest', '2026-09-30'), refundCents: 100_050, interestCents: 4_403 },
      { channel: channel('protest', '2026-08-27'), refundCents: 1, interestCents: 0 },
      { channel: channel('cape', null, 'CAPE now'), refundCents: 300_000, interestCents: 5_122 },
      { channel: channel('court', '2027-11-20'), refundCents: 250, interestCents: 3 },
    ]);
    expect(totals).toEqual([
      { channel: 'cape', label: 'CAPE now', entries: 1, refundCents: 300_000, interestCents: 5_122, earliestDeadline: null },
      { channel: 'protest', label: 'Protest', entries: 2, refundCents: 100_051, interestCents: 4_403, earliestDeadline: '2026-08-27' },
      { channel: 'court', label: 'Final: court action', entries: 2, refundCents: 750, interestCents: 10, earliestDeadline: '2026-08-27' },
      { channel: 'not_cape', label: 'Not for CAPE', entries: 1, refundCents: 0, interestCents: 0, earliestDeadline: null },
    ]);
  });
});

describe('refundInterest', () => {
  it('compounded daily at the quarter\'s rate: 1,000.00 corporate, 2025-04-01 to 2025-07-10', () => {
    // 100 days (Apr 30 + May 31 + Jun 30 + Jul 9), 6% every day: 1,000 × ((1 + 0.06/365)^100 − 1)
    // = 1,000 × (1.000164383562^100 − 1) = 1,000 × 0.016572836 = 16.5728 → 16.57.
    expect(refundInterest(100000, '2025-04-01', '2025-07-10', true)).toEqual({ cents: 1657, days: 100, note: '' });
    // Non-corporate 7%: 1,000 × ((1 + 0.07/365)^100 − 1) = 1,000 × 0.019361 = 19.36.
    expect(refundInterest(100000, '2025-04-01', '2025-07-10', false).cents).toBe(1936);
  });

  it('past the last quarter in the table the last rate is assumed, and said; nothing before the deposit', () => {
    const i = refundInterest(100000, '2026-03-01', '2026-04-10', true);
    // 40 days at 6%: 1,000 × ((1 + 0.06/365)^40 − 1) = 1,000 × 0.0065960 = 6.60.
    expect(i).toEqual({ cents: 660, days: 40, note: 'rates after the quarter of 2026-01-01 not yet in the table: 6% assumed' });
    expect(refundInterest(100000, '2026-03-01', '2026-02-01', true).cents).toBe(0);
  });
});

describe('entry numbers (CATAIR Appendix E)', () => {
  it('check digit: ABC-1234567 is 6', () => {
    // A B C → 1 2 3: 1231234567. From the right, doubled: 7→14 (1+4=5), 5→10 (1), 3→6, 1→2, 2→4;
    // kept: 6, 4, 2, 3, 1. 5+1+6+2+4 + 6+4+2+3+1 = 34; 40 − 34 = 6.
    expect(entryCheckDigit('ABC1234567')).toBe(6);
    expect(entryCheckDigit('9999999999')).toBe(0);
    expect(checkEntryNumber(' abc 1234567 6')).toEqual({ entryNumber: 'ABC-1234567-6' });
    expect(checkEntryNumber('ABC-1234567-8')).toEqual({ error: 'ABC-1234567-8 has the check digit 8; CATAIR Appendix E gives 6 for ABC-1234567' });
    expect(checkEntryNumber('AB-1234567-8')).toEqual({ error: "AB-1234567-8 is not an entry number of CBP's form XXX-NNNNNNN-C (filer code of 3 letters or digits, 7 digits, check digit; CATAIR Appendix E)" });
  });
});

describe('capeDeclaration', () => {
  it('CAPE entries only, checked, duplicates once; 10,001 entries are two files of 9,999 and 2', () => {
    const cape = entryChannel({ entryDate: '2025-09-10', liquidationStatus: 'unliquidated' }, FILING);
    const protest = entryChannel({ entryDate: '2025-09-10', liquidationDate: '2026-02-28' }, FILING);
    const numbers = Array.from({ length: 10001 }, (_, i) => {
      const base = `ABC${String(i).padStart(7, '0')}`;
      return `${base}${entryCheckDigit(base)}`;
    });
    const d = capeDeclaration(
      [...numbers.map((n) => ({ entryNumber: n, channel: cape })), { entryNumber: numbers[0], channel: cape }, { entryNumber: 'ABC-1234567-8', channel: cape }, { entryNumber: 'ABC-1234567-6', channel: protest }],
      FILING,
    );
    expect(d.files.map((f) => f.length)).toEqual([9999, 2]);
    // ABC0000000: from the right seven zeros, C 3 kept, B 2 doubled 4, A 1 kept: 8; 10 − 8 = 2.
    expect(d.files[0][0]).toBe('ABC-0000000-2');
    expect(d.refused).toEqual([
      { entry_number: 'ABC-0000000-2', reason: 'listed more than once: kept once' },
      { entry_number: 'ABC-1234567-8', reason: 'ABC-1234567-8 has the check digit 8; CATAIR Appendix E gives 6 for ABC-1234567' },
      { entry_number: 'ABC-1234567-6', reason: 'Protest by 2026-08-27' },
    ]);
    // ABC0009999: 9 doubled 18 (9), 9, 9 doubled (9), 9, then 3 + 4 + 1: 44, check 6. ABC0010000: 1 doubled 2, + 8: 10, check 0.
    expect(capeCsv(d.files[1], FILING)).toBe('Entry Number\r\nABC-0009999-6\r\nABC-0010000-0');
  });
});
