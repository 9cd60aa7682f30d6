/** Debian's Chromium driven by Playwright, against the real server on a temporary database. */
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from '../../src/server/testing/test-app.js';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // The machine has no route to Google's services; these keep Chromium from trying.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Site extends TestApp {
  url: string;
}

/** The whole site (API and built client) listening on a free port. */
export async function startSite(options: TestAppOptions = {}): Promise<Site> {
  const t = await createTestApp('sqlite', { clientDir: inject('clientDir'), ...options });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, url };
}

/** Collects what the page logs as errors (script errors, CSP violations, failed loads). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
