import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Debian's chromium (`.ci/run` installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const required = process.env.CI === 'true' || process.env.REQUIRE_BROWSER_TESTS === '1';

if (!available && required) {
  throw new Error(`${CHROMIUM} is missing and CI requires the browser suites: apt-get install chromium`);
}
if (!available) {
  process.stderr.write(`Browser suites SKIPPED: ${CHROMIUM} is missing (apt-get install chromium, or set CHROMIUM_PATH)\n`);
}

/** `describe` when Chromium is installed; otherwise the suite is reported as skipped, never silently passed. */
export const describeBrowser: jest.Describe = available ? describe : describe.skip;

export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** Every JavaScript error and console error of a page, to assert that there are none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`page error: ${(err as Error).message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') {
      errors.push(`console error: ${message.text()} (${message.location().url ?? ''})`);
    }
  });
  return errors;
}
