/**
 * A real headless Chromium for tests (`@sparticuz/chromium`'s bundled build, driven by `puppeteer-core`): nothing
 * is downloaded, the binary ships inside the npm package and is unpacked to the temp folder on first use.
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

export type { Browser, HTTPRequest, Page } from 'puppeteer-core';

/** Launches headless Chromium; close it with `browser.close()` in a `finally`. */
export async function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
}
