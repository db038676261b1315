/**
 * Where the add-on reads its API URL and key. Custom functions run without the identity of the
 * person recalculating, so they can read user properties only of the script's owner: a key an
 * editor saved in their own user properties would be ignored. The key therefore lives in the
 * document's properties, readable by every execution in this spreadsheet and written from the
 * sidebar, which only people who may edit the spreadsheet can open.
 */

import type { OrderOptions } from '../spreadsheet/order-sheet.js';

/** The API origin this build was made for (env SHEETS_API_ORIGIN at build time). */
declare const __LANDED_API_ORIGIN__: string;

const URL_PROPERTY = 'landed.apiUrl';
const KEY_PROPERTY = 'landed.apiKey';
const OPTIONS_PROPERTY = 'landed.orderOptions';
/** The tail of the key that answered a connection test: saving another key makes it stale by itself. */
const KEY_WORKS_PROPERTY = 'landed.keyWorks';
const keyTail = (key: string) => key.slice(-8);

export interface Settings {
  apiUrl: string;
  apiKey: string;
  /** Whether this key answered a connection test (the sidebar shows its settings first until one has). */
  keyWorks: boolean;
}

export const DEFAULT_API_URL = __LANDED_API_ORIGIN__;

function documentProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

export function readSettings(): Settings {
  const p = documentProperties();
  const apiKey = p.getProperty(KEY_PROPERTY) || '';
  return { apiUrl: p.getProperty(URL_PROPERTY) || DEFAULT_API_URL, apiKey, keyWorks: apiKey !== '' && p.getProperty(KEY_WORKS_PROPERTY) === keyTail(apiKey) };
}

/** Remembers that the saved key answered. */
export function markKeyWorks(): void {
  documentProperties().setProperty(KEY_WORKS_PROPERTY, keyTail(readSettings().apiKey));
}

/**
 * `https://host/path` → `https://host/path/`. Anything but an http(s) URL is refused, and so is an
 * address this build cannot reach: Apps Script fetches only what appsscript.json whitelists.
 */
export function normaliseApiUrl(input: string): string {
  const url = input.trim();
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(url)) throw new Error(`The API URL must be an https:// address such as ${DEFAULT_API_URL}; got ${JSON.stringify(url.slice(0, 80))}`);
  const normal = url.endsWith('/') ? url : `${url}/`;
  if (!normal.toLowerCase().startsWith(DEFAULT_API_URL.toLowerCase()))
    throw new Error(
      `This copy of the add-on may only call ${DEFAULT_API_URL} (the address it was built for, in appsscript.json's urlFetchWhitelist), so to use ${normal} rebuild it with SHEETS_API_ORIGIN=${normal} npm run build and push it again with clasp.`,
    );
  return normal;
}

/** Saves the URL and, when one is given, the key. An empty key field keeps the saved key. */
export function writeSettings(input: { apiUrl?: string; apiKey?: string; clearKey?: boolean }): void {
  const p = documentProperties();
  if (input.apiUrl !== undefined) p.setProperty(URL_PROPERTY, normaliseApiUrl(input.apiUrl));
  const key = (input.apiKey ?? '').trim();
  if (key) {
    if (/\s/.test(key)) throw new Error('The API key must not contain spaces');
    p.setProperty(KEY_PROPERTY, key);
  } else if (input.clearKey) p.deleteProperty(KEY_PROPERTY);
}

export type { OrderOptions };

export function readOrderOptions(): OrderOptions {
  const saved = documentProperties().getProperty(OPTIONS_PROPERTY);
  return saved ? (JSON.parse(saved) as OrderOptions) : {};
}

export function writeOrderOptions(options: OrderOptions): void {
  documentProperties().setProperty(OPTIONS_PROPERTY, JSON.stringify(options));
}
