/**
 * `npm run data:dated -- DIR` builds data/hts/dated-schedule.json.gz from a folder of USITC's JSON
 * exports (`hts_2025_basic.json.gz` … `hts_2026_rev_10.json.gz`) and its `revision_dates.csv` (the
 * archive of The Budget Lab at Yale's tariff-rate-tracker; data/SOURCES.md), then checks that every
 * revision reads back row for row as published. Exit 1 on any failure (the file is left as it was).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowFields, rowsOf, type RevisionInfo } from '../../shared/revisions.js';
import { appendRevision, datedSchedulePath, emptyDatedSchedule, writeDatedSchedule } from '../data/dated-schedule.js';
import { parseCsv } from '../data/countries.js';
import { parseHtsBytes, revisionFromName } from '../data/hts-file.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run data:dated -- DIR (a folder of hts_<year>_<rev>.json.gz files and revision_dates.csv)');
  process.exit(1);
}

try {
  const dates = parseCsv(readFileSync(join(dir, 'revision_dates.csv'), 'utf8'), join(dir, 'revision_dates.csv'));
  const data = emptyDatedSchedule();
  const published: { file: string; rows: ReturnType<typeof parseHtsBytes> }[] = [];
  for (const d of dates) {
    // revision_dates.csv names 2025's revisions without their year (`rev_18`, `basic`), 2026's with it.
    const id = /^\d{4}_/.test(d.revision) ? d.revision : `2025_${d.revision}`;
    const file = `hts_${id}.json.gz`;
    const rows = parseHtsBytes(readFileSync(join(dir, file)), file);
    const policy = d.policy_effective_date && d.policy_effective_date !== 'NA' ? d.policy_effective_date : null;
    const info: RevisionInfo = { id, name: revisionFromName(file)!, published: d.effective_date, policy, from: policy ?? d.effective_date };
    appendRevision(data, rows, info);
    published.push({ file, rows });
    console.log(`${info.name}: from ${info.from}; ${data.rows.length} row versions`);
  }
  // Every revision read back is the export as published (the fields the engine reads).
  published.forEach(({ file, rows }, k) => {
    const back = JSON.stringify(rowsOf(data, k).map(rowFields));
    if (back !== JSON.stringify(rows.map(rowFields))) throw new Error(`${file} does not read back as published`);
  });
  const path = datedSchedulePath();
  const size = writeDatedSchedule(path, data);
  console.log(`wrote ${path}: ${data.revisions.length} revisions, ${data.rows.length} row versions, ${size} bytes`);
} catch (e) {
  console.error(`data:dated failed: ${(e as Error).message}`);
  process.exit(1);
}
