/**
 * The task pane: settings (API address, key in OfficeRuntime.storage, test connection), shown first
 * until a key has worked, and the "Cost selected order" button with its column picker, progress
 * and Cancel. The work is in order-sheet.ts, the shared client and spreadsheet/order-sheet.ts.
 */
/// <reference types="office-js" />
import type { HtsRecord } from '../../../shared/record.js';
import { isApiError, landed, normaliseBaseUrl } from '../client/index.js';
import { GET_A_KEY } from '../../../spreadsheet/addin-help.js';
import { COLUMN_LABELS, columnChoices, ColumnsNeeded, DECIMAL_MARKS, ORDER_COLUMNS, pickerDefaults, type ColumnChoice, type ColumnMapping, type DecimalMark } from '../../../spreadsheet/order-sheet.js';
import { costSelectedOrder, readSelection } from './order-sheet.js';
import { checkSelectedRefund } from './refund.js';
import { CANCELLED, costedText, progressText, totalsBlock, type TotalsRow } from '../../../spreadsheet/order-output.js';
import { waitingText } from '../../../spreadsheet/rate-limit.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;


function say(id: string, text: string, kind: 'ok' | 'error' | '' = ''): void {
  const el = $(id);
  el.textContent = text;
  el.className = `status ${kind}`;
}

function errorText(e: unknown): string {
  return isApiError(e) || e instanceof Error ? e.message : String(e);
}

/** Until a key has worked, the settings come first and the order part waits. */
function showSetup(keyWorks: boolean): void {
  $('app').classList.toggle('setup', !keyWorks);
  $('order').hidden = !keyWorks;
}

async function loadSettings(): Promise<void> {
  const s = await landed().api.settings();
  $<HTMLInputElement>('base-url').value = s.baseUrl;
  $<HTMLInputElement>('api-key').value = s.key;
  showSetup(s.keyWorks);
  if (!s.key) say('settings-status', `Paste your API key, then press Test connection. ${GET_A_KEY}`, 'error');
  else if (!s.keyWorks) say('settings-status', 'Press Test connection to check the key.');
}

async function saveSettings(): Promise<boolean> {
  const raw = $<HTMLInputElement>('base-url').value;
  if (raw.trim() && !normaliseBaseUrl(raw)) {
    say('settings-status', 'The API address must be an http(s) URL such as https://landed.example.com.', 'error');
    return false;
  }
  const client = landed();
  await client.api.saveSettings({ baseUrl: raw, key: $<HTMLInputElement>('api-key').value });
  client.forget();
  await loadSettings();
  say('settings-status', 'Saved.', 'ok');
  return true;
}

async function testConnection(): Promise<void> {
  if (!(await saveSettings())) return;
  say('settings-status', 'Testing…');
  try {
    const client = landed();
    const r = await client.api.get<HtsRecord>('/hts/6109.10.00');
    await client.api.keyWorked();
    const { limit, remaining } = client.api.lastRateLimit;
    const quota = limit !== null && remaining !== null ? `; ${remaining} of ${limit} requests left this minute` : '';
    say('settings-status', `Connected to ${(await client.api.settings()).baseUrl}: schedule ${r.hts_revision}${quota}.`, 'ok');
    showSetup(true);
  } catch (e) {
    say('settings-status', errorText(e), 'error');
  }
}

/** Fills the column pickers with the selection's columns, starting from what its first row names. */
async function offerColumns(): Promise<void> {
  const sel = await readSelection();
  const first = sel.values[0] ?? [];
  const chosen = pickerDefaults(first);
  for (const col of ORDER_COLUMNS) {
    const select = $<HTMLSelectElement>(`col-${col}`);
    select.replaceChildren(new Option('(none)', ''));
    for (const c of columnChoices(first, sel.columnIndex, sel.columnCount)) select.append(new Option(c.label, c.value));
    select.value = chosen.mapping[col] !== undefined ? String(chosen.mapping[col]) : '';
  }
  $<HTMLInputElement>('has-header').checked = chosen.header;
}

/** The columns chosen in the picker; null while it is closed (detect them from the header row). */
function chosenColumns(): ColumnChoice | null {
  if (!($('columns') as HTMLDetailsElement).open) return null;
  const mapping: ColumnMapping = {};
  for (const col of ORDER_COLUMNS) {
    const v = $<HTMLSelectElement>(`col-${col}`).value;
    if (v !== '') mapping[col] = Number(v);
  }
  return { mapping, header: $<HTMLInputElement>('has-header').checked };
}

/** The in-pane question (Office task panes have no window.confirm). */
function confirmInPane(message: string): Promise<boolean> {
  $('confirm-text').textContent = message;
  $('confirm').hidden = false;
  return new Promise((resolve) => {
    const answer = (yes: boolean) => () => {
      $('confirm').hidden = true;
      resolve(yes);
    };
    $('confirm-yes').onclick = answer(true);
    $('confirm-no').onclick = answer(false);
  });
}

function showNotes(notes: readonly string[]): void {
  $('notes').replaceChildren(...notes.map((n) => Object.assign(document.createElement('li'), { textContent: n })));
}

function showTotals(rows: readonly TotalsRow[]): void {
  const body = $('totals').querySelector('tbody')!;
  body.replaceChildren(
    ...rows.map(({ label, value, total }) => {
      const tr = document.createElement('tr');
      if (total) tr.className = 'total';
      tr.append(Object.assign(document.createElement('td'), { textContent: label }), Object.assign(document.createElement('td'), { textContent: value, className: 'num' }));
      return tr;
    }),
  );
  $('totals').hidden = !rows.length;
}

/**
 * Costing and the refund check share the sheet, the status, the totals and Cancel: one runs at a
 * time. `startRun` disables both buttons, clears what the last run showed, and gives the run its own
 * way to be cancelled and its own rate-limit countdown.
 */
function startRun(): { signal: AbortSignal } & ReturnType<typeof rateLimitCountdown> {
  const controller = new AbortController();
  $('cancel-cost').onclick = () => controller.abort();
  $('cancel-cost').hidden = false;
  for (const id of ['cost', 'refund']) $<HTMLButtonElement>(id).disabled = true;
  showTotals([]);
  showNotes([]);
  say('order-status', 'Reading the selection…');
  return { signal: controller.signal, ...rateLimitCountdown() };
}

function endRun(run: { stop: () => void }): void {
  run.stop();
  for (const id of ['cost', 'refund']) $<HTMLButtonElement>(id).disabled = false;
  $('cancel-cost').hidden = true;
}

/** While a run waits for the rate limit, the seconds left counted down in the status; `stop` ends the count. */
function rateLimitCountdown(): { waiting: (ms: number, done: number, total: number, lines: number) => void; stop: () => void } {
  let countdown: ReturnType<typeof setInterval> | undefined;
  const stop = () => clearInterval(countdown);
  const waiting = (ms: number, done: number, total: number, lines: number) => {
    stop();
    const until = Date.now() + ms;
    const show = () => {
      const left = until - Date.now();
      if (left > 0) return say('order-status', waitingText(left, done, total));
      stop();
      say('order-status', progressText(lines, done, total));
    };
    show();
    countdown = setInterval(show, 1000);
  };
  return { waiting, stop };
}

async function cost(): Promise<void> {
  const progress = $<HTMLProgressElement>('progress');
  const run = startRun();
  const { signal, waiting, stop: stopCountdown } = run;
  try {
    const summary = await costSelectedOrder(
      {
        options: {
          s301: $<HTMLSelectElement>('s301').value || undefined,
          ocean: $<HTMLInputElement>('ocean').checked,
          origin: $<HTMLInputElement>('origin').value.trim() || undefined,
          date: $<HTMLInputElement>('date').value || undefined,
          decimal: $<HTMLSelectElement>('decimal').value as DecimalMark,
          checkCodes: $<HTMLInputElement>('check-codes').checked,
        },
        columns: chosenColumns(),
      },
      {
        client: landed(),
        confirm: confirmInPane,
        signal,
        progress(done, total, lines) {
          stopCountdown();
          progress.hidden = false;
          progress.max = Math.max(total, 1);
          progress.value = done;
          say('order-status', progressText(lines, done, total));
        },
        waiting,
      },
    );
    if (!summary.costed || summary.address === null || !summary.totals) {
      say('order-status', CANCELLED);
      return;
    }
    const t = summary.totals;
    say('order-status', costedText(t, summary.address, summary.costed.hts_revision), t.errors ? 'error' : 'ok');
    showTotals(totalsBlock(t, summary.dutyMissing));
    // The notes the Sheets sidebar shows: what the totals leave out, the fee year used (a fallback when the table
    // lacks the current one), the caveats; on the sheet they are the totals' Status and the record's cell note.
    showNotes(summary.notes);
  } catch (e) {
    if (isApiError(e) && e.code === 'cancelled') say('order-status', CANCELLED);
    else say('order-status', errorText(e), 'error');
    // Opening the picker fills it (its toggle event).
    if (e instanceof ColumnsNeeded) ($('columns') as HTMLDetailsElement).open = true;
  } finally {
    endRun(run);
    progress.hidden = true;
  }
}

/** "Refund check": the selected past entry lines, their IEEPA duties refundable (refund.ts). */
async function refund(): Promise<void> {
  const run = startRun();
  const { signal, waiting, stop: stopCountdown } = run;
  try {
    const options = { origin: $<HTMLInputElement>('origin').value.trim() || undefined, decimal: $<HTMLSelectElement>('decimal').value as DecimalMark };
    const refundOptions = {
      filingDate: $<HTMLInputElement>('filing-date').value || undefined,
      refundDate: $<HTMLInputElement>('refund-date').value || undefined,
      corporate: $<HTMLInputElement>('corporate').checked,
    };
    const r = await checkSelectedRefund(options, {
      client: landed(),
      confirm: confirmInPane,
      signal,
      progress: (done, total, lines) => {
        stopCountdown();
        say('order-status', progressText(lines, done, total));
      },
      waiting,
    }, refundOptions);
    say('order-status', r.status, r.address === null ? '' : r.errors ? 'error' : 'ok');
    if (r.address === null) return;
    showTotals(r.totals);
    showNotes(r.notes);
  } catch (e) {
    say('order-status', isApiError(e) && e.code === 'cancelled' ? 'Cancelled: nothing was written.' : errorText(e), isApiError(e) && e.code === 'cancelled' ? '' : 'error');
  } finally {
    endRun(run);
  }
}

function buildControls(): void {
  const grid = $('column-selects');
  for (const col of ORDER_COLUMNS) {
    const label = Object.assign(document.createElement('label'), { htmlFor: `col-${col}`, textContent: COLUMN_LABELS[col] });
    const select = Object.assign(document.createElement('select'), { id: `col-${col}` });
    grid.append(label, select);
  }
  $('columns').addEventListener('toggle', () => {
    if (($('columns') as HTMLDetailsElement).open) offerColumns().catch((e) => say('order-status', errorText(e), 'error'));
  });
  $<HTMLSelectElement>('decimal').append(...DECIMAL_MARKS.map((m) => new Option(m.label, m.value)));
}

Office.onReady(async () => {
  buildControls();
  $('save').onclick = () => void saveSettings();
  $('test').onclick = () => void testConnection();
  $('cost').onclick = () => void cost();
  $('refund').onclick = () => void refund();
  await loadSettings();
  $('loading').hidden = true;
  $('app').hidden = false;
});
