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

/**
 * What a narrow page cuts off: the visible select boxes that reach past the page's right edge, and
 * those whose longest option (any may be chosen) is wider than the box leaves for its text (the box
 * less its padding, its border and the 20 px of its arrow), measured in the box's own font; and any
 * empty input whose placeholder is wider than its box; and a page wider than the window. Each as `id: text` or `id`.
 */
export function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    const width = document.documentElement.clientWidth;
    const ctx = document.createElement('canvas').getContext('2d')!;
    for (const s of Array.from(document.querySelectorAll('select'))) {
      if (!s.getClientRects().length) continue;
      const box = s.getBoundingClientRect();
      if (box.right > width + 0.5) cut.push(s.id);
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
      for (const o of Array.from(s.options)) if (ctx.measureText(o.text).width > room) cut.push(`${s.id}: ${o.text}`);
    }
    for (const i of Array.from(document.querySelectorAll('input'))) {
      if (!i.getClientRects().length || !i.placeholder || i.value) continue;
      const cs = getComputedStyle(i);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      if (ctx.measureText(i.placeholder).width > i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)) cut.push(`${i.id}: ${i.placeholder}`);
    }
    if (document.documentElement.scrollWidth > width) cut.push(`page ${document.documentElement.scrollWidth} px wide`);
    return cut;
  });
}
