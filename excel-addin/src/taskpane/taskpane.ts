/**
 * The task pane: settings (API address, key in OfficeRuntime.storage, test connection) and the
 * "Cost selected order" button. The work is in order-sheet.ts and the shared client.
 */
/// <reference types="office-js" />
import type { HtsRecord } from '../../../shared/record.js';
import { isApiError, landed, normaliseBaseUrl } from '../client/index.js';
import { headerMapping, ORDER_COLUMNS } from '../../../shared/order-sheet.js';
import { columnLetter, costSelectedOrder, type Mapping, readSelection } from './order-sheet.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const LABELS: Record<(typeof ORDER_COLUMNS)[number], string> = { hts: 'HTS', value: 'Value', origin: 'Origin', qty: 'Qty', unit: 'Unit' };
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function say(id: string, text: string, kind: 'ok' | 'error' | '' = ''): void {
  const el = $(id);
  el.textContent = text;
  el.className = `status ${kind}`;
}

function errorText(e: unknown): string {
  return isApiError(e) || e instanceof Error ? e.message : String(e);
}

async function loadSettings(): Promise<void> {
  const s = await landed().api.settings();
  $<HTMLInputElement>('base-url').value = s.baseUrl;
  $<HTMLInputElement>('api-key').value = s.key;
  if (!s.key) say('settings-status', 'Set your API key to start.', 'error');
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
    const { limit, remaining } = client.api.lastRateLimit;
    const quota = limit !== null && remaining !== null ? `; ${remaining} of ${limit} requests left this minute` : '';
    say('settings-status', `Connected to ${(await client.api.settings()).baseUrl}: schedule ${r.hts_revision}${quota}.`, 'ok');
  } catch (e) {
    say('settings-status', errorText(e), 'error');
  }
}

/** Fills the column choosers with the selection's columns (headers shown when there is a header row). */
async function offerColumns(): Promise<void> {
  const sel = await readSelection();
  const first = sel.values[0] ?? [];
  const detected = headerMapping(first) ?? {};
  for (const col of ORDER_COLUMNS) {
    const select = $<HTMLSelectElement>(`col-${col}`);
    select.replaceChildren(new Option('(auto)', ''));
    if (col !== 'hts' && col !== 'value') select.append(new Option('(none)', 'none'));
    for (let i = 0; i < sel.columnCount; i++) {
      const name = typeof first[i] === 'string' && first[i] ? ` · ${String(first[i]).slice(0, 20)}` : '';
      select.append(new Option(`${columnLetter(sel.columnIndex + i)}${name}`, String(i)));
    }
    select.value = detected[col] !== undefined ? String(detected[col]) : '';
  }
  ($('columns') as HTMLDetailsElement).open = true;
}

function chosenColumns(): { mapping: Mapping; header: boolean } | null {
  const mapping: Mapping = {};
  let chosen = false;
  for (const col of ORDER_COLUMNS) {
    const v = $<HTMLSelectElement>(`col-${col}`).value;
    if (v !== '') chosen = true;
    if (v !== '' && v !== 'none') mapping[col] = Number(v);
  }
  return chosen ? { mapping, header: $<HTMLInputElement>('has-header').checked } : null;
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

function showTotals(rows: [string, string][]): void {
  const body = $('totals').querySelector('tbody')!;
  body.replaceChildren(
    ...rows.map(([k, v]) => {
      const tr = document.createElement('tr');
      tr.append(Object.assign(document.createElement('td'), { textContent: k }), Object.assign(document.createElement('td'), { textContent: v }));
      return tr;
    }),
  );
  $('totals').hidden = !rows.length;
}

async function cost(): Promise<void> {
  const button = $<HTMLButtonElement>('cost');
  const progress = $<HTMLProgressElement>('progress');
  button.disabled = true;
  showTotals([]);
  say('order-status', 'Reading the selection…');
  try {
    const summary = await costSelectedOrder(
      {
        options: {
          s301: $<HTMLSelectElement>('s301').value || undefined,
          ocean: $<HTMLInputElement>('ocean').checked,
          origin: $<HTMLInputElement>('origin').value.trim() || undefined,
          date: $<HTMLInputElement>('date').value || undefined,
        },
        columns: chosenColumns(),
      },
      {
        client: landed(),
        confirm: confirmInPane,
        progress(done, total) {
          progress.hidden = false;
          progress.max = Math.max(total, 1);
          progress.value = done;
          say('order-status', `Costing ${total} lines… ${done} done`);
        },
      },
    );
    if (!summary.costed) {
      say('order-status', 'Cancelled: nothing was written.');
      return;
    }
    const t = summary.costed.totals;
    say(
      'order-status',
      `Costed ${t.lines} lines into ${summary.address}${t.errors ? `; ${t.errors} with errors (see the Status column)` : ''}. Schedule ${summary.costed.hts_revision}.`,
      t.errors ? 'error' : 'ok',
    );
    showTotals([
      ['Customs value', money.format(t.customs_value)],
      ['Duty', money.format(t.duty)],
      ['Section 301', money.format(t.section_301)],
      // Every chapter 99 layer (Section 232, 301, IEEPA, 122, ...), Section 301 included.
      ['Chapter 99 duties', money.format(t.additional_duty)],
      ['MPF', money.format(t.mpf)],
      ['HMF', money.format(t.hmf)],
      ['Duties and fees', money.format(t.total_duties_fees)],
      ['Landed cost', money.format(t.landed_cost)],
    ]);
  } catch (e) {
    say('order-status', errorText(e), 'error');
    if (e instanceof Error && /choose the columns/i.test(e.message)) await offerColumns().catch(() => undefined);
  } finally {
    button.disabled = false;
  }
}

function buildColumnSelects(): void {
  const grid = $('column-selects');
  for (const col of ORDER_COLUMNS) {
    const label = Object.assign(document.createElement('label'), { htmlFor: `col-${col}`, textContent: LABELS[col] });
    const select = Object.assign(document.createElement('select'), { id: `col-${col}` });
    select.append(new Option('(auto)', ''));
    grid.append(label, select);
  }
  $('columns').addEventListener('toggle', () => {
    if (($('columns') as HTMLDetailsElement).open) offerColumns().catch((e) => say('order-status', errorText(e), 'error'));
  });
}

Office.onReady(async () => {
  buildColumnSelects();
  $('save').onclick = () => void saveSettings();
  $('test').onclick = () => void testConnection();
  $('cost').onclick = () => void cost();
  await loadSettings();
  $('loading').hidden = true;
  $('app').hidden = false;
});
