/**
 * Push reminders and the installable, offline app in Chromium (issue 28). Subscribing needs
 * Google's push service, which test machines cannot reach: PushManager.subscribe is stubbed to
 * hand out a subscription at the test's fake push service (its keys made by the test), and the
 * tests say so in their names. Everything after that is real: the site's sender encrypts and
 * signs for the fake service, which decrypts; the decrypted message is delivered to the real
 * service worker through CDP (ServiceWorker.deliverPushMessage), which shows the notification.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { FakePushService, type TestSubscription } from '../../src/server/testing/fake-push-service.js';
import { instantAt } from '../../src/shared/time.js';
import { TodayPage } from './pages.js';
import {
  browserTest,
  expectAccessible,
  newVisitor,
  saveScreenshots,
  watchCspViolations,
  type Visitor,
} from './support.js';

const push = new FakePushService();
// A getter: the service's port is known once it has started, before each test's site starts.
const t = browserTest({
  env: {
    get PUSH_SERVICE_HOSTS() {
      return push.host;
    },
  },
  pushAgent: push.agent(),
});
beforeAll(() => push.start());
afterAll(() => push.stop());

/**
 * Counts the page's permission requests and push subscriptions, and stubs PushManager's
 * subscribe with the fake service's subscription (Chromium here cannot reach Google's service).
 */
async function stubPush(context: BrowserContext, subscription: TestSubscription) {
  await context.addInitScript((json) => {
    const counts = { permissionRequests: 0, subscribes: 0 };
    Object.defineProperty(window, '__push', { value: counts });
    const request = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => {
      counts.permissionRequests++;
      return request(...args);
    };
    let current: PushSubscription | null = null;
    PushManager.prototype.getSubscription = async () => current;
    PushManager.prototype.subscribe = async (options) => {
      counts.subscribes++;
      if (!options?.applicationServerKey) throw new Error('no applicationServerKey');
      const key = options.applicationServerKey as Uint8Array;
      current = {
        endpoint: json.endpoint,
        options: { applicationServerKey: key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength) },
        toJSON: () => json,
        unsubscribe: async () => true,
      } as unknown as PushSubscription;
      return current;
    };
  }, subscription.json);
}

/** Adds up, from the first paint, every layout shift not caused by the visitor (what CLS counts). */
async function recordLayoutShifts(context: BrowserContext) {
  await context.addInitScript(() => {
    const shifts = { total: 0 };
    Object.defineProperty(window, '__layoutShift', { value: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) shifts.total += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts so far, once the frame being drawn has been (its shifts are reported with it). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          setTimeout(() => resolve((window as unknown as { __layoutShift: { total: number } }).__layoutShift.total)),
        ),
      ),
  );

const pushCounts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __push: { permissionRequests: number; subscribes: number } }).__push);

/** The service worker's registration id, as CDP knows it, once it is active. */
async function workerRegistration(cdp: CDPSession): Promise<string> {
  return new Promise((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const active = versions.find((v) => v.status === 'activated');
      if (active) resolve(active.registrationId);
    });
    void cdp.send('ServiceWorker.enable');
  });
}

const notifications = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      url: (n.data as { url: string }).url,
    })),
  );

async function visitorInLondon(): Promise<Visitor & { subscription: TestSubscription }> {
  const visitor = await newVisitor(t.browser, t.site, undefined, { timezoneId: 'Europe/London' });
  const subscription = push.subscribe();
  await stubPush(visitor.context, subscription);
  await visitor.context.grantPermissions(['notifications'], { origin: t.site.url });
  return { ...visitor, subscription };
}

describe('reminders in Chromium', () => {
  it('asks for permission only after "Remind me in this browser" is clicked (PushManager.subscribe stubbed with the fake service’s keys), then a reminder arrives through the real service worker', async () => {
    push.expectedKey = (await (await fetch(`${t.site.url}/api/reminders`)).json()).applicationServerKey;
    // Monday 23 November, 09:00 in New York.
    const monday = instantAt('2026-11-23', { hours: 9, minutes: 0 }, 'America/New_York');
    t.site.clock.set(monday);
    await seedPoll(t.site.db, {
      question: 'Should phones be banned in class?',
      options: ['Yes', 'No'],
      liveDate: '2026-11-23',
    });
    await seedPoll(t.site.db, {
      question: 'Is a four-day week better?',
      options: ['Yes', 'No'],
      liveDate: '2026-11-24',
      status: 'scheduled',
    });
    const visitor = await visitorInLondon();
    const { page, context } = visitor;
    const violations = await watchCspViolations(visitor);
    const cdp = await context.newCDPSession(page);
    const registration = workerRegistration(cdp);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    const registrationId = await registration;

    expect(await pushCounts(page)).toEqual({ permissionRequests: 0, subscribes: 0 });
    await today.option('No').click();
    await today.subscribeModal.waitFor();
    const offer = page.getByRole('button', { name: '🔔 Remind me in this browser' });
    await offer.waitFor();
    await saveScreenshots(page, 'reminders-offer');
    // The invitation is up, the offer in it: still no request.
    expect(await pushCounts(page)).toEqual({ permissionRequests: 0, subscribes: 0 });
    await expectAccessible(page);

    await offer.click();
    await page.getByText('Reminders on: weekdays at 15:30 (Europe/London).').waitFor();
    expect(await pushCounts(page)).toEqual({ permissionRequests: 1, subscribes: 1 });
    await saveScreenshots(page, 'reminders-offer-done');

    // Tuesday: a new poll goes live; at 15:30 in London the site sends the reminder.
    t.site.clock.set(instantAt('2026-11-24', { hours: 0, minutes: 1 }, 'America/New_York'));
    await t.site.app.jobs.tick();
    t.site.clock.set(instantAt('2026-11-24', { hours: 15, minutes: 30 }, 'Europe/London'));
    expect(await t.site.app.jobs.sendReminders()).toMatchObject({ sent: 1 });
    const [message] = push.messagesFor(visitor.subscription.id);
    expect(message?.vapid.ok).toBe(true);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(t.site.url).origin,
      registrationId,
      data: JSON.stringify(message?.payload),
    });
    await expect
      .poll(() => notifications(page))
      .toEqual([
        {
          title: 'Teacher Hot Take',
          body: 'Is a four-day week better?',
          tag: 'reminder-2026-11-24',
          // PUBLIC_URL's page (localhost), opened at the worker's own origin (the browser's 127.0.0.1).
          url: `${t.site.url}/`,
        },
      ]);
    expect(message?.payload?.url).toBe(`${t.site.publicUrl}/`);
    expect(violations).toEqual([]);
  });

  it('the settings page changes, tests and turns off the reminder (PushManager.subscribe stubbed with the fake service’s keys)', async () => {
    push.expectedKey = (await (await fetch(`${t.site.url}/api/reminders`)).json()).applicationServerKey;
    await seedPoll(t.site.db, { question: 'Should phones be banned in class?', options: ['Yes', 'No'] });
    const visitor = await visitorInLondon();
    const { page } = visitor;
    const cdp = await visitor.context.newCDPSession(page);
    const registration = workerRegistration(cdp);
    await recordLayoutShifts(visitor.context);
    await page.goto(`${t.site.url}/reminders`);
    const registrationId = await registration;
    await page.getByText('This browser has no reminder yet.').waitFor();
    // The form takes the place the server's page kept for it: nothing below moves when it
    // arrives (Lighthouse counted a shift of 0.26 when the page kept none).
    expect(await layoutShift(page)).toBeLessThan(0.01);
    expect(await pushCounts(page)).toEqual({ permissionRequests: 0, subscribes: 0 });
    await page.getByLabel('Time', { exact: true }).fill('07:45');
    await page.getByRole('checkbox', { name: 'Sat' }).check();
    await page.getByRole('button', { name: '🔔 Turn reminders on' }).click();
    await page.getByText('Reminders on: Mondays to Saturdays at 07:45 (Europe/London).').first().waitFor();
    expect(await pushCounts(page)).toEqual({ permissionRequests: 1, subscribes: 1 });

    await page.getByLabel('Pause until (optional)').fill('2026-12-01');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.reminders__status', { hasText: 'paused until 2026-12-01' }).waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'reminders-settings');

    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await expect.poll(() => push.messagesFor(visitor.subscription.id).length).toBe(1);
    const [message] = push.messagesFor(visitor.subscription.id);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(t.site.url).origin,
      registrationId,
      data: JSON.stringify(message?.payload),
    });
    await expect
      .poll(() => notifications(page))
      .toEqual([
        {
          title: 'Teacher Hot Take',
          body: 'Should phones be banned in class?',
          tag: 'reminder-test',
          url: `${t.site.url}/`,
        },
      ]);

    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('This browser has no reminder yet.').waitFor();
    expect(await t.site.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
  });

  it.each([
    ['an iPhone outside a home-screen app: how to add it to the home screen', 'iphone'],
    ['notifications blocked: nothing', 'denied'],
  ] as const)('after a vote, on %s, instead of the offer', async (_name, kind) => {
    await seedPoll(t.site.db, { question: 'Should phones be banned in class?', options: ['Yes', 'No'] });
    const context = await t.browser.newContext({
      viewport: { width: 390, height: 844 },
      ...(kind === 'iphone'
        ? {
            userAgent:
              'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
          }
        : {}),
    });
    try {
      if (kind === 'denied') {
        await context.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
      }
      const page = await context.newPage();
      await page.clock.install({ time: t.site.clock.now() });
      const today = new TodayPage(page);
      await today.goto(t.site.url);
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await today.option('No').click();
      await today.subscribeModal.waitFor();
      await page.getByRole('button', { name: 'No Thanks' }).waitFor();
      if (kind === 'iphone') {
        await page.getByText('Get a daily reminder on this iPhone or iPad').waitFor();
        await saveScreenshots(page, 'reminders-offer-iphone');
      } else {
        // The lazy offer has had its chance to load with the dialog: it drew nothing.
        await page.waitForLoadState('networkidle');
        expect(await page.locator('.remind-offer').count()).toBe(0);
      }
      expect(await page.getByRole('button', { name: '🔔 Remind me in this browser' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('without scripts, the settings page says reminders need them', async () => {
    const context = await t.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${t.site.url}/reminders`);
      await page.getByText('Reminders are notifications from your browser, and those need JavaScript').waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('installable and offline', () => {
  it('the manifest makes the site installable, with no installability errors', async () => {
    await seedPoll(t.site.db);
    // Chromium installs nothing from an incognito profile, which every new context is: a profile of its own.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(t.site.url);
      await page.evaluate(() => navigator.serviceWorker.ready);
      const cdp = await context.newCDPSession(page);
      await expect
        .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, { timeout: 10_000 })
        .toEqual([]);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
    const manifest = (await (await fetch(`${t.site.url}/manifest.webmanifest`)).json()) as {
      icons: { purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Teacher Hot Take', display: 'standalone', start_url: '/' });
    expect(manifest.icons.map((icon: { purpose: string }) => icon.purpose)).toContain('maskable');
  });

  it('offline, a reload shows the offline page with the polls read before, and the cache holds no HTML', async () => {
    const past = await seedPoll(t.site.db, {
      question: 'Do you set homework on Fridays?',
      options: ['Yes', 'No'],
      votes: [3, 1],
      status: 'past',
      liveDate: '2026-11-20',
    });
    await seedPoll(t.site.db);
    const { page, context } = await newVisitor(t.browser, t.site);
    await page.goto(t.site.url);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.goto(`${t.site.url}/poll-${past.pollNumber}`);
    // The service worker keeps the poll's results as the page is read.
    await expect
      .poll(() =>
        page.evaluate(
          async () => (await caches.keys()).length > 0 && (await (await caches.open('closed-polls-v1')).keys()).length,
        ),
      )
      .toBe(1);
    const cached = await page.evaluate(async () => {
      const all: { url: string; type: string | null }[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          all.push({
            url: new URL(request.url).pathname,
            type: (await cache.match(request))?.headers.get('content-type') ?? null,
          });
        }
      }
      return all;
    });
    expect(cached).toEqual([
      { url: `/api/polls/number/${past.pollNumber}`, type: expect.stringMatching(/^application\/json/) },
    ]);

    await context.setOffline(true);
    await page.reload({ waitUntil: 'load' });
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    await page.getByRole('heading', { name: `#${past.pollNumber}: Do you set homework on Fridays?` }).waitFor();
    await page.getByText('Yes: 75% (3 votes)').waitFor();
    await saveScreenshots(page, 'offline-page');
    await context.setOffline(false);
  });
});
