import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath, DEBIAN_CHROMIUM, packagedChromium } from '../support/chromium';

// The browser tests' fallback on a machine without Debian's Chromium: `npm install && npm test`
// is the whole set-up, so the Chromium inside the npm package must start and render here.
describe("the browser tests' Chromium", () => {
  it('starts the build inside @sparticuz/chromium and renders a page', async () => {
    const browser = await chromium.launch({ executablePath: await packagedChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.setContent('<main><h1>Daphnia Magna</h1><button>Buy Now</button></main>');
      await page.getByRole('button', { name: 'Buy Now' }).click();
      expect(await page.locator('h1').textContent()).toBe('Daphnia Magna');
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('prefers CHROMIUM_PATH, refuses one that is not there, and takes Debian’s where it is', async () => {
    await expect(chromiumPath({ CHROMIUM_PATH: '/nowhere/chromium' })).rejects.toThrow(
      'No Chromium at CHROMIUM_PATH=/nowhere/chromium.',
    );
    expect(await chromiumPath({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath);
    const path = await chromiumPath({});
    expect(path === '/usr/bin/chromium' || path.startsWith('/tmp')).toBe(true);
    expect(DEBIAN_CHROMIUM).toBe('/usr/bin/chromium');
  });
});
