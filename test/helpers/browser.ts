/**
 * Debian's Chromium driven by playwright-core, as every page test here runs it: headless, in a fresh
 * profile folder, without the background networking this closed machine would refuse.
 */
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(profile: string, viewport: { width: number; height: number }): Promise<{ browser: BrowserContext; page: Page }> {
  expect(existsSync(CHROMIUM), `${CHROMIUM} (Debian package chromium) is needed`).toBe(true);
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport,
  });
  return { browser, page: browser.pages()[0] ?? (await browser.newPage()) };
}
