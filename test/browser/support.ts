/** Debian's Chromium driven by Playwright, against the real server on a temporary database. */
import { AxeBuilder } from '@axe-core/playwright';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from '../../src/server/testing/test-app.js';
import { newYorkTime } from '../../src/server/testing/test-clock.js';

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
  /** Where the browser goes: http://127.0.0.1:port. */
  url: string;
  /** The site's canonical address (PUBLIC_URL): the same server as http://localhost:port. */
  publicUrl: string;
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The whole site (API and built client) listening on a free port, at 10:00 in New York. Its
 * PUBLIC_URL names the same server by another host than the browser uses, so a link built
 * from the page's own address instead of the canonical one shows.
 */
export async function startSite(options: TestAppOptions = {}): Promise<Site> {
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;
  const t = await createTestApp('sqlite', {
    clientDir: inject('clientDir'),
    ...options,
    env: { PUBLIC_URL: publicUrl, ...options.env },
  });
  const url = await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, url, publicUrl };
}

export interface Visitor {
  context: BrowserContext;
  page: Page;
  /** What the page logged as errors (script errors, CSP violations, failed loads). */
  errors: string[];
}

export const PHONE = { width: 390, height: 844 };
export const LAPTOP = { width: 1280, height: 800 };

/**
 * A new browser (own cookies and storage) whose clock reads the same as the server's, so the
 * countdown and the server's close time agree.
 */
export async function newVisitor(
  browser: Browser,
  site: Site,
  viewport = PHONE,
  {
    timezoneId,
  }: { /** The browser's own time zone (IANA), when it should differ from the machine's. */ timezoneId?: string } = {},
): Promise<Visitor> {
  const context = await browser.newContext({
    viewport,
    reducedMotion: 'reduce',
    ...(timezoneId ? { timezoneId } : {}),
  });
  openContexts.add(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
  const page = await context.newPage();
  waitForTheApp(page);
  await page.clock.install({ time: site.clock.now() });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

const openContexts = new Set<BrowserContext>();

/**
 * Every Content Security Policy violation that any page of the visitor's browser, or a worker
 * one starts, reports from now on: call it before the pages load. Chromium reports each
 * attempt as a `securitypolicyviolation` event and a console error, even one whose failure the
 * code catches (zod's probe for `new Function` was one), so both are watched; a worker has a
 * console of its own.
 */
export async function watchCspViolations({ context, page }: Pick<Visitor, 'context' | 'page'>): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as { reportViolation: (text: string) => Promise<void> }).reportViolation;
        void report(`${event.violatedDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`);
      },
      true,
    );
  });
  const fromConsole = (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  };
  page.on('console', fromConsole);
  page.on('worker', (worker) => worker.on('console', fromConsole));
  return violations;
}

/**
 * A page loads the app's script once its server-drawn content has painted, so `load` no longer
 * means the app runs. This visitor's `goto` and `reload` also wait for the app to take the page
 * over (`<html data-hydrated>`, app.tsx) on pages of the app (those with a #root), unless the
 * test names its own `waitUntil` (to look at the page before the app, say).
 */
function waitForTheApp(page: Page) {
  const appReady = async () => {
    await page.locator('html[data-hydrated], html:not(:has(#root))').waitFor({ state: 'attached' });
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (!options?.waitUntil) await appReady();
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (!options?.waitUntil) await appReady();
    return response;
  };
}

/**
 * A visitor whose browser runs no script (a locked-down school browser): what the server's
 * HTML and CSS do alone. Closed with the other visitors.
 */
export async function scriptlessVisitor(
  browser: Browser,
  {
    viewport = PHONE,
    colorScheme,
  }: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    acceptDownloads: true,
    viewport,
    ...(colorScheme ? { colorScheme } : {}),
  });
  openContexts.add(context);
  return { context, page: await context.newPage() };
}

/** Closes every visitor's browser, and so its connections: call it before closing the site. */
export async function closeVisitors() {
  await Promise.all([...openContexts].map((context) => context.close()));
  openContexts.clear();
}

/**
 * Keeps the title of every toast the page shows, in order, even one replaced by the next:
 * call before the page loads, read with `toastsShown`. A test can then say that something
 * showed no toast by doing something that shows one and finding only that.
 */
export async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const shown: string[] = [];
    Object.defineProperty(window, '__toastsShown', { value: shown });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          const titles = node.matches('.toast__title') ? [node] : [...node.querySelectorAll('.toast__title')];
          for (const title of titles) shown.push(title.textContent);
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

export function toastsShown(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __toastsShown: string[] }).__toastsShown);
}

/** Moves the server's clock and the page's together. */
export async function setTime(site: Site, page: Page, date: string, time: string) {
  const instant = newYorkTime(date, time);
  site.clock.set(instant);
  await page.clock.setSystemTime(instant);
}

/** Axe with the WCAG 2.2 A and AA rules: no serious or critical violation allowed. */
export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious).toEqual([]);
}

const SCREENSHOTS = path.resolve('test-results', 'screenshots');

/** Saves the page at phone and laptop widths as test artifacts, to look at. */
export async function saveScreenshots(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize() ?? PHONE;
  for (const [label, size] of [
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

export interface BrowserTest {
  browser: Browser;
  /** Today's site; a test may close it and start another (with other settings) in its place. */
  site: Site;
}

/**
 * The hooks of a browser test file: Chromium launched once for the file, and before each test
 * a fresh site on its own database, closed after it with every browser opened on it.
 */
export function browserTest(siteOptions: TestAppOptions = {}): BrowserTest {
  const t = {} as BrowserTest;
  beforeAll(async () => {
    t.browser = await launchChromium();
  });
  afterAll(() => t.browser.close());
  beforeEach(async () => {
    t.site = await startSite(siteOptions);
  });
  afterEach(async () => {
    await closeVisitors();
    await t.site.close();
  });
  return t;
}
