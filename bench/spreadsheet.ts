/**
 * The spreadsheet path: 2,000 distinct cells of mixed real lines against the built service, through
 * the Excel add-in's batching client (DutyBatcher over LandedApi, as TARIFF.DUTY cells call it) and
 * through the Sheets add-on's range function (the built Code.js, DUTY over whole columns, in the
 * Apps Script stand-ins of test/sheets): requests made and total time, then the recalculation
 * answered from the cache.
 *
 * The Excel figure includes the batcher's 100 ms quiet window (it waits for the recalculation to
 * stop asking). The Sheets figure includes the stand-in's UrlFetchApp, which runs each fetchAll in
 * a fresh Node child process (its floor is reported); Google's own fetchAll costs differ.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../server/data/paths.js';
import type { OrderItem } from '../shared/index.js';
import { mixedItems, type LinePools } from './lib/lines.js';
import { startService } from './lib/processes.js';

export interface SheetFigure {
  figure: string;
  value: number;
  unit: string;
  target?: string;
  pass?: boolean;
}

const CELLS = 2000;

async function excel(items: OrderItem[]): Promise<SheetFigure[]> {
  const { LandedApi } = await import('../excel-addin/src/client/api.js');
  const { DutyBatcher } = await import('../excel-addin/src/client/batcher.js');
  const { memoryStore } = await import('../excel-addin/src/client/settings.js');
  const svc = await startService();
  try {
    const api = new LandedApi({ store: memoryStore({ 'landed.apiKey': svc.keys[0] }), defaultBaseUrl: svc.url });
    const batcher = new DutyBatcher(api);
    const recalc = async () => {
      const t0 = performance.now();
      const settled = await Promise.allSettled(items.map((c) => batcher.duty({ ...c, hts: c.hts })));
      return { ms: performance.now() - t0, failed: settled.filter((s) => s.status === 'rejected').length };
    };
    const first = await recalc();
    const requests = batcher.requests;
    const again = await recalc();
    return [
      { figure: `Excel: ${CELLS} TARIFF.DUTY cells, requests`, value: requests, unit: '', target: '2 (1,000 per batch)', pass: requests === 2 && first.failed === 0 },
      { figure: `Excel: ${CELLS} cells, total time`, value: first.ms, unit: 'ms' },
      { figure: 'Excel: recalculation from the cache', value: again.ms, unit: 'ms', target: '0 requests', pass: batcher.requests === requests },
    ];
  } finally {
    await svc.stop();
  }
}

async function sheets(items: OrderItem[]): Promise<SheetFigure[]> {
  const { startAddon } = await import('../test/sheets/harness.js');
  const addon = await startAddon();
  try {
    const w = addon.world;
    const col = (f: (i: OrderItem) => unknown) => items.map((i) => [f(i) ?? '']);
    const args = [col((i) => i.hts), col((i) => i.value), col((i) => i.origin), undefined, undefined, col((i) => i.qty)];
    const batches = () => w.requests.filter((r) => r.url.endsWith('/api/v1/duty/batch')).length;
    let t0 = performance.now();
    const cells = w.call<unknown[][]>('DUTY', ...args);
    const firstMs = performance.now() - t0;
    const requests = batches();
    const errors = cells.filter(([v]) => typeof v !== 'number' && !String(v).startsWith('#N/A')).length;
    t0 = performance.now();
    w.call('DUTY', ...args);
    const againMs = performance.now() - t0;
    t0 = performance.now();
    execFileSync(process.execPath, ['-e', '0']);
    const childMs = performance.now() - t0;
    return [
      { figure: `Sheets: DUTY over ${CELLS} rows, requests`, value: requests, unit: '', target: '2 (one fetchAll)', pass: requests === 2 && errors === 0 },
      { figure: `Sheets: ${CELLS} rows, total time`, value: firstMs, unit: 'ms' },
      { figure: 'Sheets: stand-in fetchAll floor (a Node child)', value: childMs, unit: 'ms' },
      { figure: 'Sheets: recalculation from the cache', value: againMs, unit: 'ms', target: '0 requests', pass: batches() === requests },
    ];
  } finally {
    await addon.close();
  }
}

export async function spreadsheetBench(pools: LinePools): Promise<SheetFigure[]> {
  const items = mixedItems(pools, CELLS, 5);
  const figures: SheetFigure[] = [];
  if (existsSync(join(projectRoot, 'excel-addin/src/client/batcher.ts'))) figures.push(...(await excel(items)));
  else figures.push({ figure: 'Excel: not measured (excel-addin/src/client/batcher.ts is missing)', value: 0, unit: '' });
  if (existsSync(join(projectRoot, 'sheets-addon/functions.ts'))) figures.push(...(await sheets(items)));
  else figures.push({ figure: 'Sheets: not measured (sheets-addon/functions.ts is missing)', value: 0, unit: '' });
  return figures;
}
