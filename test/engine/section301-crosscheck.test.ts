/**
 * The Section 301 coverage the engine derives from the schedule's footnotes, checked against an
 * independent list compiled from USTR notices (data/s301/s301_product_lists.csv).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { dataDir } from '../../server/data/paths.js';
import { realTariff } from '../helpers/tariff.js';

const csv = parse(readFileSync(join(dataDir, 's301', 's301_product_lists.csv'), 'utf8'), { columns: true }) as { hts8: string; list: string; ch99_code: string }[];

describe('Section 301 coverage against the independent product lists', () => {
  const t = realTariff();
  // Lists 1-4A: headings still cited by the schedule (4B is suspended and no longer cited).
  const listed = csv.filter((r) => ['1', '2', '3', '3_addl', '4A'].includes(r.list));

  it('the schedule cites the listed heading for nearly every listed 8-digit line it contains', () => {
    let present = 0;
    let agree = 0;
    for (const r of listed) {
      const line = t.schedule.find(r.hts8);
      if (!line) continue;
      present++;
      // A 10-digit line may carry the citation instead of its 8-digit line: look at the line and its children.
      const cited = new Set([line, ...line.children].flatMap((l) => l.section301.map((h) => h.heading)));
      if (cited.has(r.ch99_code)) agree++;
    }
    expect(present).toBeGreaterThan(9000);
    expect(agree / present).toBeGreaterThan(0.95);
  });

  it('derived rates match the lists on real lines', () => {
    const byList: Record<string, number> = { '1': 25, '2': 25, '3': 25, '4A': 7.5 };
    const sample = listed.filter((r) => r.list in byList && t.schedule.find(r.hts8)?.rates).filter((_, i) => i % 97 === 0);
    expect(sample.length).toBeGreaterThan(50);
    let same = 0;
    for (const r of sample) {
      const res = t.duty({ hts: r.hts8, value: 1000, origin: 'china', date: '2025-06-01' });
      // The 2024 review raised some lines above their list's rate; never below it.
      expect(res.section_301_rate).toBeGreaterThanOrEqual(byList[r.list]);
      if (res.section_301_rate === byList[r.list]) same++;
    }
    expect(same / sample.length).toBeGreaterThan(0.9);
  });
});
