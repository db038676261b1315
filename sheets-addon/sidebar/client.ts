/**
 * The sidebar's script (bundled into Sidebar.html). All work happens on the server side through
 * google.script.run; this only collects input, shows progress and asks before overwriting.
 */
import type { ConnectionTest, SidebarSettings } from '../addon.js';
import type { ChunkResult, ColumnsQuestion, OrderPlan, OrderSummary, RateLimited } from '../order.js';
import type { RefundAnswer, RefundWait } from '../refund.js';
import { COLUMN_LABELS, DECIMAL_MARKS, ORDER_COLUMNS, type ColumnChoice, type ColumnMapping, type DecimalMark } from '../../spreadsheet/order-sheet.js';
import { progressAt, type FeeBasis } from '../../spreadsheet/order-requests.js';
import { GET_A_KEY } from '../../spreadsheet/addin-help.js';
import { CANCELLED, costedText, failedText, overwriteQuestion, progressText, totalsBlock, type TotalsRow } from '../../spreadsheet/order-output.js';
import { waitingText } from '../../spreadsheet/rate-limit.js';

type Handler = (value: unknown) => void;
interface Runner {
  withSuccessHandler(f: Handler): Runner;
  withFailureHandler(f: (e: Error) => void): Runner;
}
declare const google: { script: { run: Runner } };

/** A server-side function through google.script.run, as a promise. */
function call<T>(name: string, ...args: unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const runner = google.script.run.withSuccessHandler((v) => resolve(v as T)).withFailureHandler(reject);
    (runner as unknown as Record<string, (...a: unknown[]) => void>)[name](...args);
  });
}

const el = <T extends HTMLElement = HTMLInputElement>(id: string) => document.getElementById(id) as T;
const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

function say(id: string, kind: 'ok' | 'error' | 'info' | '', text: string): void {
  const box = el<HTMLDivElement>(id);
  box.className = `message ${kind}`;
  box.textContent = text;
}

/** The costing and the refund check share the sheet, the status and the totals: one runs at a time. */
function busy(on: boolean): void {
  for (const id of ['save', 'test', 'forget', 'cost', 'refund']) el<HTMLButtonElement>(id).disabled = on;
}

/** Until a key has worked, the connection comes first and the order part waits. */
function showSetup(keyWorks: boolean): void {
  document.body.classList.toggle('setup', !keyWorks);
}

function showSettings(s: SidebarSettings): void {
  el('apiUrl').value = s.apiUrl;
  el('apiKey').value = '';
  showSetup(s.keyWorks);
  el<HTMLSpanElement>('keyState').textContent = s.keySet ? `A key ending in …${s.keyHint} is saved for this spreadsheet.` : `No key saved: paste one above. ${GET_A_KEY}`;
  el<HTMLButtonElement>('forget').hidden = !s.keySet;
  el('origin').value = s.options.origin ?? '';
  el<HTMLSelectElement>('s301').value = s.options.s301 ?? '';
  el('date').value = s.options.date ?? '';
  el('ocean').checked = s.options.ocean === true;
  el('checkCodes').checked = s.options.checkCodes !== false;
  el<HTMLSelectElement>('decimal').value = s.options.decimal ?? '.';
}

async function save(clearKey = false): Promise<void> {
  busy(true);
  try {
    showSettings(await call<SidebarSettings>('saveSettings', { apiUrl: el('apiUrl').value, apiKey: clearKey ? '' : el('apiKey').value, clearKey }));
    say('connection', 'ok', clearKey ? 'Key removed: the formulas of this spreadsheet stop calling the API.' : 'Saved.');
  } catch (e) {
    say('connection', 'error', errorMessage(e));
  } finally {
    busy(false);
  }
}

async function test(): Promise<void> {
  busy(true);
  say('connection', 'info', 'Testing…');
  try {
    const r = await call<ConnectionTest>('testConnection');
    say('connection', r.ok ? 'ok' : 'error', r.message);
    if (r.ok) showSetup(true);
  } catch (e) {
    say('connection', 'error', errorMessage(e));
  } finally {
    busy(false);
  }
}

/** Shows the question and waits for Overwrite (true) or Cancel (false). */
function confirmOverwrite(output: string): Promise<boolean> {
  return confirmQuestion(overwriteQuestion(output));
}

function confirmQuestion(question: string): Promise<boolean> {
  const box = el<HTMLDivElement>('confirm');
  el<HTMLDivElement>('confirmText').textContent = question;
  box.style.display = 'block';
  return new Promise((resolve) => {
    const answer = (yes: boolean) => () => {
      box.style.display = 'none';
      resolve(yes);
    };
    el<HTMLButtonElement>('overwrite').onclick = answer(true);
    el<HTMLButtonElement>('cancel').onclick = answer(false);
  });
}

/** Progress in lines over both passes, before step `index` of the plan (its length: all done). */
function progress(index: number, plan: OrderPlan): void {
  const bar = el<HTMLProgressElement>('progress');
  const { lines, done, total } = progressAt(plan.steps, index);
  bar.style.display = 'block';
  bar.max = total;
  bar.value = done;
  say('order', 'info', index < plan.steps.length ? progressText(lines, done, total) : 'Writing the totals…');
}

/**
 * Waits `ms` for the rate limit before a step runs again (the progress it stands at), counting the
 * seconds down in the status; Cancel ends the wait at once.
 */
function waitOut(ms: number, { done, total }: { done: number; total: number }): Promise<void> {
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const tick = () => {
      const left = until - Date.now();
      if (left > 0 && !stopping) return say('order', 'info', waitingText(left, done, total));
      clearInterval(timer);
      resolve();
    };
    const timer = setInterval(tick, 250);
    tick();
  });
}

/** Fills the column picker and opens it. */
function offerColumns(q: Pick<ColumnsQuestion, 'defaults' | 'choices'>): void {
  for (const col of ORDER_COLUMNS) {
    const select = el<HTMLSelectElement>(`col-${col}`);
    select.replaceChildren(new Option('(none)', ''), ...q.choices.map((c) => new Option(c.label, c.value)));
    const i = q.defaults.mapping[col];
    select.value = i === undefined ? '' : String(i);
  }
  el('hasHeader').checked = q.defaults.header;
  filled = true;
  el<HTMLDetailsElement>('columns').open = true;
}

/** Whether the picker was just filled for the selection (opening it then needs no new read). */
let filled = false;

/** The columns chosen in the picker; null while it is closed (found from the header row). */
function chosenColumns(): ColumnChoice | null {
  if (!el<HTMLDetailsElement>('columns').open) return null;
  const mapping: ColumnMapping = {};
  for (const col of ORDER_COLUMNS) {
    const v = el<HTMLSelectElement>(`col-${col}`).value;
    if (v !== '') mapping[col] = Number(v);
  }
  return { mapping, header: el('hasHeader').checked };
}

function showSummary(s: OrderSummary): void {
  const t = s.totals;
  showTotals(totalsBlock(t, s.dutyMissing), s.notes);
  say('order', t.errors ? 'error' : 'ok', costedText(t, s.output, s.revision));
}

/** The totals block and the notes under the buttons (an order's or a refund check's). */
function showTotals(rows: readonly TotalsRow[], notes: readonly string[]): void {
  const table = el<HTMLTableElement>('totals');
  const body = table.tBodies[0];
  body.replaceChildren(
    ...rows.map(({ label, value, total }) => {
      const tr = document.createElement('tr');
      if (total) tr.className = 'total';
      const a = document.createElement('td');
      a.textContent = label;
      const b = document.createElement('td');
      b.className = 'num';
      b.textContent = value;
      tr.append(a, b);
      return tr;
    }),
  );
  table.style.display = 'table';
  el<HTMLUListElement>('notes').replaceChildren(
    ...notes.map((n) => {
      const li = document.createElement('li');
      li.textContent = n;
      return li;
    }),
  );
}

/** "Refund check": the selected past entry lines, their IEEPA duties refundable (refund.ts), asked before overwriting. */
async function refund(): Promise<void> {
  busy(true);
  el<HTMLTableElement>('totals').style.display = 'none';
  el<HTMLUListElement>('notes').replaceChildren();
  say('order', 'info', 'Checking the selected entry lines…');
  try {
    const options = { origin: el('origin').value.trim(), decimal: el<HTMLSelectElement>('decimal').value as DecimalMark };
    const refundOptions = { filingDate: el('filing-date').value || undefined, refundDate: el('refund-date').value || undefined, corporate: el<HTMLInputElement>('corporate').checked };
    const check = async (overwrite: boolean): Promise<RefundAnswer | null> => {
      // Refused by the rate limit, the check wrote nothing: it is asked again once the wait is over (Cancel ends it).
      for (;;) {
        const answer = await call<RefundAnswer | RefundWait>('checkSelectedRefund', options, overwrite, refundOptions);
        if (!('waitMs' in answer)) return answer;
        el<HTMLButtonElement>('stop').hidden = false;
        await waitOut(answer.waitMs, { done: 0, total: answer.lines });
        el<HTMLButtonElement>('stop').hidden = true;
        if (stopping) return null;
      }
    };
    stopping = false;
    let r = await check(false);
    if (r?.confirm !== undefined) {
      if (!(await confirmQuestion(r.confirm))) return say('order', 'info', 'Cancelled: nothing was written.');
      r = await check(true);
    }
    if (!r) return say('order', 'info', 'Cancelled: nothing was written.');
    showTotals(r.totals, r.notes);
    say('order', r.errors ? 'error' : 'ok', r.status);
  } catch (e) {
    say('order', 'error', errorMessage(e));
  } finally {
    busy(false);
  }
}

/** Set by Cancel: the costing stops after the request under way and clears what it wrote. */
let stopping = false;

async function cost(): Promise<void> {
  busy(true);
  stopping = false;
  el<HTMLTableElement>('totals').style.display = 'none';
  el<HTMLUListElement>('notes').replaceChildren();
  say('order', 'info', 'Reading the selection…');
  // Set once costing starts: a failure then undoes what was written, as Cancel does (no half-costed order).
  let started: OrderPlan | null = null;
  try {
    const options = {
      origin: el('origin').value.trim(),
      s301: el<HTMLSelectElement>('s301').value,
      ocean: el('ocean').checked,
      checkCodes: el('checkCodes').checked,
      date: el('date').value,
      decimal: el<HTMLSelectElement>('decimal').value as DecimalMark,
    };
    const planned = await call<OrderPlan | ColumnsQuestion>('planSelectedOrder', options, chosenColumns());
    if ('needColumns' in planned) {
      say('order', 'error', planned.message);
      offerColumns(planned);
      return;
    }
    const plan = planned;
    if (plan.occupied && !(await confirmOverwrite(plan.output))) {
      say('order', 'info', CANCELLED);
      return;
    }
    el<HTMLButtonElement>('stop').hidden = false;
    started = plan;
    const bases: (FeeBasis | null)[] = Array.from({ length: plan.chunks }, () => null);
    const parts: ChunkResult[] = [];
    for (const [index, step] of plan.steps.entries()) {
      if (stopping) break;
      progress(index, plan);
      // A step the rate limit refused wrote nothing: it runs again once the wait it asked for is over.
      for (;;) {
        const answer = step.measure
          ? await call<FeeBasis | RateLimited>('measureOrderChunk', plan, step.part)
          : await call<ChunkResult | RateLimited>('costOrderChunk', plan, step.part, bases);
        if (!('waitMs' in answer)) {
          if (step.measure) bases[step.part] = answer as FeeBasis;
          else parts.push(answer as ChunkResult);
          break;
        }
        await waitOut(answer.waitMs, progressAt(plan.steps, index));
        if (stopping) break;
        progress(index, plan);
      }
    }
    if (stopping) {
      await call('discardOrder', plan);
      say('order', 'info', CANCELLED);
      return;
    }
    progress(plan.steps.length, plan);
    showSummary(await call<OrderSummary>('finishOrder', plan, parts));
  } catch (e) {
    const undone = started ? await call('discardOrder', started).then(() => true, () => false) : false;
    say('order', 'error', undone ? failedText(errorMessage(e)) : errorMessage(e));
  } finally {
    el<HTMLButtonElement>('stop').hidden = true;
    el<HTMLProgressElement>('progress').style.display = 'none';
    busy(false);
  }
}

function buildControls(): void {
  const grid = el<HTMLDivElement>('columnSelects');
  for (const col of ORDER_COLUMNS) {
    const label = Object.assign(document.createElement('label'), { htmlFor: `col-${col}`, textContent: COLUMN_LABELS[col] });
    grid.append(label, Object.assign(document.createElement('select'), { id: `col-${col}` }));
  }
  el<HTMLSelectElement>('decimal').append(...DECIMAL_MARKS.map((m) => new Option(m.label, m.value)));
  el<HTMLDetailsElement>('columns').addEventListener('toggle', () => {
    const open = el<HTMLDetailsElement>('columns').open;
    if (open && !filled)
      call<Pick<ColumnsQuestion, 'defaults' | 'choices'>>('getSelectionColumns').then(offerColumns, (e) => say('order', 'error', errorMessage(e)));
    filled = false;
  });
}

el<HTMLButtonElement>('save').onclick = () => save();
el<HTMLButtonElement>('forget').onclick = () => save(true);
el<HTMLButtonElement>('test').onclick = test;
el<HTMLButtonElement>('cost').onclick = cost;
el<HTMLButtonElement>('refund').onclick = refund;
el<HTMLButtonElement>('stop').onclick = () => {
  stopping = true;
  say('order', 'info', 'Cancelling after the request under way…');
};
buildControls();
call<SidebarSettings>('getSettings').then(showSettings, (e) => say('connection', 'error', errorMessage(e)));
