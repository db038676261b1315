/**
 * Where the add-on reads its API URL and key. Custom functions run without the identity of the
 * person recalculating, so they can read user properties only of the script's owner: a key an
 * editor saved in their own user properties would be ignored. The key therefore lives in the
 * document's properties, readable by every execution in this spreadsheet and written from the
 * sidebar, which only people who may edit the spreadsheet can open.
 */

/** The API origin this build was made for (env SHEETS_API_ORIGIN at build time). */
declare const __LANDED_API_ORIGIN__: string;

const URL_PROPERTY = 'landed.apiUrl';
const KEY_PROPERTY = 'landed.apiKey';
const OPTIONS_PROPERTY = 'landed.orderOptions';

export interface Settings {
  apiUrl: string;
  apiKey: string;
}

/** Options of an order that hold for all its lines (POST /duty/bulk). */
export interface OrderOptions {
  origin?: string;
  s301?: string;
  ocean?: boolean;
  date?: string;
}

export const DEFAULT_API_URL = __LANDED_API_ORIGIN__;

function documentProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

export function readSettings(): Settings {
  const p = documentProperties();
  return { apiUrl: p.getProperty(URL_PROPERTY) || DEFAULT_API_URL, apiKey: p.getProperty(KEY_PROPERTY) || '' };
}

/** `https://host/path` → `https://host/path/`; anything but an http(s) URL is refused. */
export function normaliseApiUrl(input: string): string {
  const url = input.trim();
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(url)) throw new Error(`The API URL must be an https:// address such as ${DEFAULT_API_URL}; got ${JSON.stringify(url.slice(0, 80))}`);
  return url.endsWith('/') ? url : `${url}/`;
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

export function readOrderOptions(): OrderOptions {
  const saved = documentProperties().getProperty(OPTIONS_PROPERTY);
  return saved ? (JSON.parse(saved) as OrderOptions) : {};
}

export function writeOrderOptions(options: OrderOptions): void {
  documentProperties().setProperty(OPTIONS_PROPERTY, JSON.stringify(options));
}
