/**
 * The task pane as the end-to-end tests open it: the add-in built fresh into a temporary folder,
 * served by the real API server at /excel/ (with `overrides`: a small rate limit), Chromium with
 * office.js answered by the stand-in (fixtures/office-stub.js) and nothing else leaving the machine.
 * The caller listens to the page, then goes to `url`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import build from '../../excel-addin/build.mjs';
import type { AppDeps } from '../../server/app.js';
import { projectRoot } from '../../server/data/paths.js';
import { launchChromium } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/server.js';

const stub = readFileSync(join(import.meta.dirname, 'fixtures', 'office-stub.js'), 'utf8');

/** What the stand-in exposes to the tests: the sheet, OfficeRuntime.storage, the custom functions. */
declare global {
  interface Window {
    /** Worksheets the add-in added (the CAPE declaration sheets). */
    __worksheets: { names(): string[]; values(name: string): unknown[][] | undefined; formats(name: string): string[][] | undefined };
    __sheet: {
      set(row: number, col: number, values: unknown[][]): void;
      get(row: number, col: number, h: number, w: number): unknown[][];
      formats(row: number, col: number, h: number, w: number): string[][];
      bold(row: number, col: number, h: number, w: number): boolean[][];
      border(row: number, col: number): string | null;
      fills(row: number, col: number, h: number, w: number): (string | null)[][];
      notes(row: number, col: number, h: number, w: number): (string | null)[][];
      note(row: number, col: number, text: string): void;
      select(row: number, col: number, h: number, w: number): void;
      clear(): void;
      letter(i: number): string;
    };
    __storage: Map<string, string>;
    __associated: Map<string, (...args: unknown[]) => Promise<unknown>>;
  }
}

export interface Pane {
  server: RunningServer;
  browser: BrowserContext;
  page: Page;
  /** The pane's page. */
  url: string;
  close(): Promise<void>;
}

export async function openPane(overrides: Partial<AppDeps> = {}): Promise<Pane> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-excel-e2e-'));
  await build(projectRoot, { outDir: join(dir, 'static', 'excel'), env: {} });
  const server = await startServer({ staticRoot: join(dir, 'static'), ...overrides });
  // 350 px: the width Excel opens a task pane at; every test and screenshot of the pane is at it.
  const { browser, page } = await launchChromium(join(dir, 'profile'), { width: 350, height: 1000 });
  // office.js comes from Microsoft's CDN: the stand-in answers instead; nothing else leaves the machine.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.request().url() === 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js'
      ? route.fulfill({ status: 200, contentType: 'application/javascript', body: stub })
      : route.abort(),
  );
  return {
    server,
    browser,
    page,
    url: `${server.url}/excel/taskpane.html`,
    async close() {
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
