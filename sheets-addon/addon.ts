/**
 * The add-on's entry points besides the custom functions: the menu, the sidebar, and the functions
 * the sidebar calls through google.script.run. Every exported function here becomes a top-level
 * function of Code.js (see build.mjs).
 */
import { ApiError, send } from './api.js';
import { forgetAnswers } from './cache.js';
import { clearOutput, costChunk, measureChunk, planOrder, selectionColumns, writeTotals, type ChunkResult, type ColumnsQuestion, type OrderPlan, type OrderSummary, type RateLimited } from './order.js';
import { DEFAULT_API_URL, markKeyWorks, readOrderOptions, readSettings, writeOrderOptions, writeSettings, type OrderOptions } from './settings.js';
import type { ColumnChoice } from '../spreadsheet/order-sheet.js';
import { progressAt, type FeeBasis } from '../spreadsheet/order-requests.js';
import { costedText, failedText, overwriteQuestion, progressText, totalsBlock } from '../spreadsheet/order-output.js';
import { waitingText } from '../spreadsheet/rate-limit.js';

const TITLE = 'landed';
/** How often the menu's toast counts down a wait for the rate limit. */
const TOAST_EVERY_MS = 5000;

const isRateLimited = (answer: object): answer is RateLimited => 'waitMs' in answer;

/**
 * Adds the landed menu. A menu of its own, not the add-on menu: in a script bound to the
 * spreadsheet, the add-on menu is titled with the Apps Script project's name, whatever it is.
 * @param {GoogleAppsScript.Events.SheetsOnOpen} e The open event.
 */
export function onOpen(e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  void e;
  SpreadsheetApp.getUi().createMenu(TITLE).addItem('Open sidebar', 'showSidebar').addItem('Cost selected order', 'costSelectedOrder').addToUi();
}

/**
 * Runs when the add-on is installed: adds the menu at once.
 * @param {GoogleAppsScript.Events.AddonOnInstall} e The install event.
 */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as GoogleAppsScript.Events.SheetsOnOpen | undefined);
}

/** Opens the sidebar: API settings, connection test and order costing. */
export function showSidebar(): void {
  SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(TITLE));
}

/** Menu: costs the selected order without the sidebar, asking before it overwrites anything. */
export function costSelectedOrder(): void {
  const ui = SpreadsheetApp.getUi();
  const book = SpreadsheetApp.getActiveSpreadsheet();
  // Set once costing starts: a failure then undoes what was written (no half-costed order).
  let started: OrderPlan | null = null;
  try {
    const plan = planOrder(readOrderOptions(), null);
    if ('needColumns' in plan) {
      ui.alert(TITLE, 'No header row names the HTS and Value columns: choose them in the sidebar (landed ▸ Open sidebar ▸ Columns).', ui.ButtonSet.OK);
      return;
    }
    if (plan.occupied && ui.alert(TITLE, overwriteQuestion(plan.output), ui.ButtonSet.YES_NO) !== ui.Button.YES) return;
    started = plan;
    const bases: (FeeBasis | null)[] = Array.from({ length: plan.chunks }, () => null);
    const parts: ChunkResult[] = [];
    for (const [index, step] of plan.steps.entries()) {
      const { lines, done, total } = progressAt(plan.steps, index);
      book.toast(progressText(lines, done, total), TITLE, -1);
      // A step the rate limit refused wrote nothing: wait as long as it asks, saying so (the toast updated every few seconds), and run it again.
      for (;;) {
        const answer = step.measure ? measureChunk(plan, step.part) : costChunk(plan, step.part, bases);
        if (!isRateLimited(answer)) {
          if (step.measure) bases[step.part] = answer as FeeBasis;
          else parts.push(answer as ChunkResult);
          break;
        }
        for (let left = answer.waitMs; left > 0; left -= TOAST_EVERY_MS) {
          book.toast(waitingText(left, done, total), TITLE, -1);
          Utilities.sleep(Math.min(left, TOAST_EVERY_MS));
        }
        book.toast(progressText(lines, done, total), TITLE, -1);
      }
    }
    const summary = writeTotals(plan, parts);
    book.toast(`${costedText(summary.totals, summary.output, summary.revision)} Landed cost ${totalsBlock(summary.totals, summary.dutyMissing).find((r) => r.total)!.value}.`, TITLE, 10);
  } catch (e) {
    if (started) clearOutput(started);
    const message = e instanceof Error ? e.message : String(e);
    ui.alert(TITLE, started ? failedText(message) : message, ui.ButtonSet.OK);
  }
}

export interface SidebarSettings {
  apiUrl: string;
  defaultApiUrl: string;
  keySet: boolean;
  /** The key's last four characters; the key itself never goes back to the browser. */
  keyHint: string;
  /** Whether the saved key answered a connection test. */
  keyWorks: boolean;
  options: OrderOptions;
}

/** Sidebar: the saved API URL, whether a key is saved, and the last order options. */
export function getSettings(): SidebarSettings {
  const s = readSettings();
  return { apiUrl: s.apiUrl, defaultApiUrl: DEFAULT_API_URL, keySet: s.apiKey !== '', keyHint: s.apiKey.slice(-4), keyWorks: s.keyWorks, options: readOrderOptions() };
}

/**
 * Sidebar: saves the API URL and key in the document's properties, where the custom functions of
 * every user of this spreadsheet read them.
 * @param {{apiUrl: string, apiKey: string, clearKey: boolean}} input The new settings; an empty key keeps the saved one.
 */
export function saveSettings(input: { apiUrl?: string; apiKey?: string; clearKey?: boolean }): SidebarSettings {
  writeSettings(input);
  forgetAnswers();
  return getSettings();
}

export interface ConnectionTest {
  ok: boolean;
  message: string;
  revision?: string;
  limit?: number;
  remaining?: number;
}

/** Sidebar: one request with the saved URL and key; says whether it works and how many requests are left this minute. */
export function testConnection(): ConnectionTest {
  try {
    const [r] = send<{ hts_revision: string }>([{ path: 'api/v1/hts/0101' }]);
    if (r instanceof ApiError) return { ok: false, message: r.message };
    markKeyWorks();
    const limit = Number(r.headers['x-ratelimit-limit']);
    const remaining = Number(r.headers['x-ratelimit-remaining']);
    return { ok: true, message: `Connected to ${readSettings().apiUrl}: schedule ${r.data.hts_revision}, ${remaining} of ${limit} requests left this minute.`, revision: r.data.hts_revision, limit, remaining };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Sidebar: reads the selected order and plans its costing (lines, chunks, where results go and
 * whether those cells are empty), or asks for its columns when no header names them. Saves the
 * options for the menu's "Cost selected order".
 * @param {{origin: string, s301: string, ocean: boolean, date: string, decimal: string, checkCodes: boolean}} options Options for every line of the order.
 * @param {{mapping: Object, header: boolean}|null} columns The columns chosen in the picker; null to find them from the header row.
 */
export function planSelectedOrder(options: OrderOptions, columns: ColumnChoice | null): OrderPlan | ColumnsQuestion {
  writeOrderOptions(options);
  return planOrder(options, columns);
}

/** Sidebar: the column picker's entries for the selection, and where it starts. */
export function getSelectionColumns(): ReturnType<typeof selectionColumns> {
  return selectionColumns();
}

/**
 * Sidebar, pass 1: the liable values of one part of an entry sent in several (a measuring step of plan.steps); nothing is written.
 * Refused by the rate limit: `{waitMs}`, for the sidebar to wait out in view and call again.
 * @param {Object} plan The plan from planSelectedOrder.
 * @param {number} index The part, from 0.
 */
export function measureOrderChunk(plan: OrderPlan, index: number): FeeBasis | RateLimited {
  return measureChunk(plan, index);
}

/**
 * Sidebar: costs one part of a planned order (up to 1,000 lines, one request) and writes its results;
 * refused by the rate limit, writes nothing and answers `{waitMs}`.
 * @param {Object} plan The plan from planSelectedOrder.
 * @param {number} index The part, from 0.
 * @param {Array<Object>} bases What measureOrderChunk answered, by request (null where not measured).
 */
export function costOrderChunk(plan: OrderPlan, index: number, bases: (FeeBasis | null)[]): ChunkResult | RateLimited {
  return costChunk(plan, index, bases);
}

/**
 * Sidebar: writes the totals row of a costed order.
 * @param {Object} plan The plan from planSelectedOrder.
 * @param {Array<Object>} parts What costOrderChunk answered for each chunk.
 */
export function finishOrder(plan: OrderPlan, parts: ChunkResult[]): OrderSummary {
  return writeTotals(plan, parts);
}

/**
 * Sidebar: the person cancelled between parts; clears what the costing had written.
 * @param {Object} plan The plan from planSelectedOrder.
 */
export function discardOrder(plan: OrderPlan): void {
  clearOutput(plan);
}
