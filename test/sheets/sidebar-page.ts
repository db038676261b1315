/**
 * The sidebar page as built (Sidebar.html) in headless Chromium, served at the address Apps Script
 * serves sidebars from (answered locally: nothing leaves the machine), its google.script.run a
 * stand-in calling `server(name, args)`: the server-side functions of the same build in the Apps
 * Script stand-ins, which call the real API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';

const SIDEBAR_URL = 'https://n-sidebar-0-script.googleusercontent.com/userCodeAppPanel';

/** google.script.run: withSuccessHandler/withFailureHandler, then any server function by name. */
const RUN_STUB = `(() => {
  const runner = (ok, fail) => new Proxy({}, {
    get(_, name) {
      if (name === 'withSuccessHandler') return (f) => runner(f, fail);
      if (name === 'withFailureHandler') return (f) => runner(ok, f);
      return (...args) => {
        window.__callServer(name, JSON.parse(JSON.stringify(args))).then(
          (v) => ok && ok(v),
          (e) => fail && fail(new Error(String(e && e.message || e).replace(/^Error: /, ''))),
        );
      };
    },
  });
  window.google = { script: { run: runner(null, null) } };
})();`;

/** Opens the sidebar of the build in `dir`, in a browser profile at `profile`, once it has read its settings. */
export async function openSidebar(
  dir: string,
  profile: string,
  server: (name: string, args: unknown[]) => unknown,
  viewport = { width: 300, height: 900 },
): Promise<{ browser: BrowserContext; page: Page }> {
  const { browser, page } = await launchChromium(profile, viewport);
  const html = readFileSync(join(dir, 'Sidebar.html'), 'utf8');
  await page.route('**/*', (route) => (route.request().url() === SIDEBAR_URL ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }) : route.abort()));
  await page.exposeFunction('__callServer', async (name: string, args: unknown[]) => server(name, args));
  await page.addInitScript(RUN_STUB);
  await page.goto(SIDEBAR_URL);
  // The page asks for the settings on load.
  await page.waitForFunction(() => (document.getElementById('apiUrl') as HTMLInputElement).value !== '');
  return { browser, page };
}
