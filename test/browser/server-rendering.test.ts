/**
 * Pages drawn by the server: their HTML read with no script run, hydration in Chromium, the
 * vote form with scripts off, and the page cache that serves each visitor their own page.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, inject, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { newYorkTime } from '../../src/server/testing/test-clock.js';
import { SSR_STATE_ELEMENT_ID } from '../../src/shared/ssr.js';
import { browserTest, LAPTOP, newVisitor, PHONE, saveScreenshots, scriptlessVisitor, startSite } from './support.js';

const t = browserTest();

async function seedSite() {
  const past = await seedPoll(t.site.db, {
    question: 'Should cursive still be taught in elementary school?',
    description: 'Some states have brought it back.',
    options: ['Yes', 'No', 'Only reading it'],
    status: 'past',
    liveDate: '2026-11-20',
    votes: [5, 4, 1],
  });
  const today = await seedPoll(t.site.db, {
    question: 'Should homework be banned?',
    description: 'Elementary school only.',
    options: ['Yes', 'No', 'Only on weekends'],
    votes: [2, 1, 0],
  });
  return { past, today };
}

interface Fetched {
  status: number;
  csp: string;
  document: ReturnType<typeof parseDocument>;
  /** The text of #root, spaces collapsed. */
  text: string;
  /** The markup of #root (the page's inlined stylesheet names every class, so look here). */
  root: string;
  html: string;
}

/** The page as the server sends it, parsed: no script runs. */
async function fetchPage(path: string, cookie?: string): Promise<Fetched> {
  const response = await fetch(`${t.site.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  const html = await response.text();
  const document = parseDocument(html);
  const root = DomUtils.findOne((node) => node.attribs.id === 'root', document.children);
  const text = root ? DomUtils.textContent(root).replace(/\s+/g, ' ').trim() : '';
  return {
    status: response.status,
    csp: response.headers.get('content-security-policy') ?? '',
    document,
    text,
    root: html.slice(html.indexOf('<div id="root">'), html.indexOf(`id="${SSR_STATE_ELEMENT_ID}"`)),
    html,
  };
}

const all = (page: Fetched, test: (attribs: Record<string, string>, name: string) => boolean) =>
  DomUtils.findAll((node) => test(node.attribs, node.name), page.document.children);

/** A vote through the JSON API, as the app sends it; returns the new voter's cookie. */
async function voteAs(pollId: number, optionIndex: number): Promise<string> {
  const response = await fetch(`${t.site.url}/api/polls/${pollId}/vote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ optionIndex, voterEmail: '' }),
  });
  expect(response.status).toBe(201);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

describe('pages drawn by the server', () => {
  it('hold each public page’s content in the HTML itself', async () => {
    const { past, today } = await seedSite();

    const home = await fetchPage('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain("TODAY'S HOT TAKE!");
    expect(home.text).toContain('Should homework be banned?');
    expect(home.text).toContain('Elementary school only.');
    // The options are buttons of a form that posts the vote itself.
    const form = all(home, (a, name) => name === 'form' && a.action === `/polls/${today.id}/vote`);
    expect(form).toHaveLength(1);
    expect(form[0]?.attribs.method).toBe('post');
    const buttons = all(home, (a, name) => name === 'button' && a.name === 'option');
    expect(buttons.map((b) => [b.attribs.type, b.attribs.value, DomUtils.textContent(b)])).toEqual([
      ['submit', '0', 'Yes'],
      ['submit', '1', 'No'],
      ['submit', '2', 'Only on weekends'],
    ]);
    expect(home.text).toContain('Time left to vote: 10h 0m');
    // No peeking before a vote: the HTML holds no results either.
    expect(home.root).not.toContain('pie-chart');
    // The data the page was drawn with, for the browser to hydrate from.
    const state = DomUtils.findOne((node) => node.attribs.id === SSR_STATE_ELEMENT_ID, home.document.children);
    expect(state?.attribs.type).toBe('application/json');
    const parsed = JSON.parse(DomUtils.textContent(state ?? home.document)) as {
      queries: { queries: { queryKey: unknown[]; state: { data: { question?: string } } }[] };
    };
    expect(parsed.queries.queries.map((q) => q.queryKey)).toEqual([['polls', 'active']]);
    expect(parsed.queries.queries[0]?.state.data.question).toBe('Should homework be banned?');

    const archive = await fetchPage('/?view=archive');
    expect(archive.text).toContain('Past Hot Takes');
    expect(archive.text).toContain('Should cursive still be taught in elementary school?');
    expect(archive.text).toContain('10 votes');

    const suggest = await fetchPage('/?view=suggest');
    expect(suggest.text).toContain('Suggest a Poll');
    expect(suggest.text).toContain('Your poll question');

    const pollPage = await fetchPage(`/poll-${past.pollNumber}`);
    expect(pollPage.status).toBe(200);
    expect(pollPage.text).toContain('Should cursive still be taught in elementary school?');
    expect(pollPage.text).toContain('Some states have brought it back.');
    expect(pollPage.text).toContain('Total: 10 votes');
    expect(pollPage.text).toContain('Poll closed');
    expect(pollPage.root).toContain('class="pie-chart"');
    // The bars' widths are style attributes: the CSP names each by its hash, and nothing inline runs.
    expect(pollPage.csp).toMatch(/style-src-attr 'unsafe-hashes' 'sha256-/);
    expect(pollPage.csp).not.toContain('unsafe-inline');
    // Two scripts are written into the page, the theme's (dark-mode.test.ts) and the app's
    // loader: the CSP names each by its hash, so they run and nothing else inline does. The
    // stylesheet is written in, named by its hash too. No file holds up the first paint. The
    // JSON blocks (site configuration, the state drawn with, the style nonce last) never run.
    const scripts = all(pollPage, (_a, name) => name === 'script');
    expect(scripts.map((s) => [s.attribs.type, s.attribs.src, s.attribs.id])).toEqual([
      [undefined, undefined, undefined],
      ['application/json', undefined, 'site-config'],
      ['application/json', undefined, SSR_STATE_ELEMENT_ID],
      [undefined, undefined, undefined],
      ['application/json', undefined, 'csp-nonce'],
    ]);
    const scriptSources = pollPage.csp.match(/script-src ([^;]*)/)?.[1]?.split(' ') ?? [];
    const inline = scripts.filter((s) => s.attribs.type === undefined).map((s) => DomUtils.textContent(s));
    expect(scriptSources).toEqual([
      "'self'",
      ...inline.map((source) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`),
    ]);
    expect(inline[0]).toContain("localStorage.getItem('theme')");
    expect(inline[1]).toMatch(/"\/assets\/index-[\w-]+\.js"/);
    // The lazy parts' sheets are in the <style> too; their links are disabled, never fetched.
    expect(all(pollPage, (a, name) => name === 'link' && a.rel === 'stylesheet' && !('disabled' in a))).toEqual([]);
    const style = all(pollPage, (_a, name) => name === 'style');
    expect(style).toHaveLength(1);
    const css = DomUtils.textContent(style[0]!);
    expect(css).toContain('.poll-card');
    expect(pollPage.csp).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    // The response's own nonce, for the style a dialog's scroll lock adds, is the page's last element.
    const nonce = /'nonce-([^']+)'/.exec(pollPage.csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const ending = pollPage.html.slice(pollPage.html.lastIndexOf('<script')).replace(/>\s+</g, '><').trim();
    expect(ending).toBe(`<script type="application/json" id="csp-nonce">"${nonce}"</script></body></html>`);

    const todayByNumber = await fetchPage(`/poll-${today.pollNumber}`);
    expect(todayByNumber.text).toContain('Should homework be banned?');
    expect(todayByNumber.root).not.toContain('pie-chart');

    const faq = await fetchPage('/faq');
    expect(faq.text).toContain('Frequently Asked Questions');
    expect(faq.text).toContain('Do I need to sign up or create an account to vote?');
    expect(faq.text).toContain('There is no sign-up and no account.');
    expect((await fetchPage('/terms')).text).toContain('Terms of Service');
    expect((await fetchPage('/privacy')).text).toContain('Privacy & Cookie Policy');

    const missing = await fetchPage('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('404 Page Not Found');
    const unknownPoll = await fetchPage('/poll-999');
    expect(unknownPoll.status).toBe(404);
    expect(unknownPoll.text).toContain('Poll Not Found');
  });

  it('carry the stylesheets of the lazy parts they draw, and none of those they do not', async () => {
    const { past } = await seedSite();
    // The build's own account of which sheets go with which module.
    const clientDir = inject('clientDir');
    const manifest = JSON.parse(fs.readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { css?: string[] }
    >;
    const sheet = (module: string) => {
      const [file, ...more] = manifest[module]?.css ?? [];
      expect(file, `${module} has a stylesheet of its own`).toBeDefined();
      expect(more).toEqual([]);
      return fs.readFileSync(path.join(clientDir, file ?? ''), 'utf8').trim();
    };
    const everyPage = sheet('index.html');
    const faqSheet = sheet('features/info-pages/faq-page.tsx');
    const pastPollSheet = sheet('app/pages/past-poll-page.tsx');
    const notDrawnOnAnyPage = [
      sheet('features/admin/admin-page.tsx'),
      sheet('features/share/share-dialog.tsx'),
      sheet('features/subscribe/components/subscribe-modal.tsx'),
      sheet('components/ui/toaster.tsx'),
    ];
    const styleOf = async (address: string) => {
      const page = await fetchPage(address);
      const styles = all(page, (_a, name) => name === 'style');
      expect(styles).toHaveLength(1);
      return DomUtils.textContent(styles[0]!);
    };

    const faq = await styleOf('/faq');
    expect(faq.startsWith(everyPage)).toBe(true);
    expect(faq).toContain(faqSheet);
    const pollPage = await styleOf(`/poll-${past.pollNumber}`);
    expect(pollPage).toContain(pastPollSheet);
    expect(pollPage).not.toContain(faqSheet);
    const home = await styleOf('/');
    expect(home).toBe(everyPage);
    for (const style of [faq, pollPage, home]) {
      for (const notDrawn of notDrawnOnAnyPage) expect(style).not.toContain(notDrawn);
    }
  });

  it('shows a voter the results and their own choice, and after the close everyone the results', async () => {
    const { today } = await seedSite();
    const voter = await voteAs(today.id, 2);
    const page = await fetchPage('/', voter);
    expect(page.root).toContain('class="pie-chart"');
    expect(page.text).toContain('Your vote');
    expect(page.text).toContain('Only on weekends');
    expect(page.text).toContain('4 votes');
    expect(all(page, (a) => a.name === 'option')).toHaveLength(0);

    t.site.clock.set(newYorkTime('2026-11-21', '20:00'));
    const closed = await fetchPage('/');
    expect(closed.root).toContain('class="pie-chart"');
    expect(closed.text).toContain('Results live! Next poll in:');
    expect(closed.text).not.toContain('Your vote');
  });

  it('serves each visitor the page of their own sight, from the cache, never another’s choice', async () => {
    const { today } = await seedSite();
    const chooseYes = await voteAs(today.id, 0);
    const chooseNo = await voteAs(today.id, 1);
    const mine = (page: Fetched) =>
      all(page, (a) => (a.class ?? '').includes('is-chosen')).map((node) => DomUtils.textContent(node));
    // Interleaved, many times over: pages drawn for one visitor must never reach another.
    for (let round = 0; round < 5; round++) {
      const [yes, no, newcomer, yesAgain] = await Promise.all([
        fetchPage('/', chooseYes),
        fetchPage('/', chooseNo),
        fetchPage('/'),
        fetchPage('/', chooseYes),
      ]);
      expect(mine(yes)).toEqual([expect.stringContaining('Yes')]);
      expect(mine(yesAgain)).toEqual([expect.stringContaining('Yes')]);
      expect(mine(no)).toEqual([expect.stringContaining('No')]);
      expect(newcomer.root).not.toContain('pie-chart');
      expect(all(newcomer, (a) => a.name === 'option')).toHaveLength(3);
      // Same page, each with a nonce of its own.
      const nonce = (page: Fetched) => /'nonce-([^']+)'/.exec(page.csp)?.[1];
      expect(nonce(yes)).not.toBe(nonce(yesAgain));
      expect(yes.html).toContain(`id="csp-nonce">"${nonce(yes)}"`);
    }
  });

  it('answers a path that starts with // with the 404 page, logging no error', async () => {
    // Read as links, these name another host (`//foo`) or none at all (`//`, `//a:99999`).
    const lines: string[] = [];
    const site = await startSite({ logStream: { write: (line) => void lines.push(line) } });
    try {
      await seedPoll(site.db, { question: 'Should homework be banned?' });
      for (const path of [
        '//',
        '//?view=archive',
        '//foo',
        '//api/x',
        '//poll-1',
        '//foo:bar',
        '//a:99999',
        '//x%00',
      ]) {
        const response = await fetch(`${site.url}${path}`);
        expect(response.status, path).toBe(404);
        expect(await response.text(), path).toContain('Page Not Found');
      }
    } finally {
      await site.close();
    }
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; status?: number });
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(
      entries.filter((entry) => entry.msg === 'request completed').map((entry) => [entry.level, entry.status]),
    ).toEqual(Array(8).fill([30, 404]));
  });
});

interface IntlRecord {
  intlUsed: string[];
}

/** Runs in the page before its scripts: notes each use of Intl and of the methods built on it. */
function recordIntlUse() {
  const used: string[] = [];
  (window as unknown as IntlRecord).intlUsed = used;
  type IntlMember = (new (...args: unknown[]) => object) & ((...args: unknown[]) => unknown);
  const intl = Intl as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(Intl)) {
    if (typeof intl[name] !== 'function') continue;
    intl[name] = new Proxy(intl[name] as IntlMember, {
      construct: (target, args: unknown[]) => {
        used.push(`Intl.${name}`);
        return new target(...args);
      },
      apply: (target, self, args: unknown[]) => {
        used.push(`Intl.${name}`);
        return target.apply(self, args);
      },
    });
  }
  const methods: [object, string[]][] = [
    [Number.prototype, ['toLocaleString']],
    [BigInt.prototype, ['toLocaleString']],
    [Array.prototype, ['toLocaleString']],
    [String.prototype, ['localeCompare', 'toLocaleUpperCase', 'toLocaleLowerCase']],
    [Date.prototype, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']],
  ];
  for (const [prototype, names] of methods) {
    const record = prototype as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const original = record[name];
      if (!original) continue;
      record[name] = function (this: unknown, ...args: unknown[]) {
        used.push(name);
        return original.apply(this, args);
      };
    }
  }
}

describe('hydration', () => {
  it('takes over every page without a warning and without fetching what the page was drawn with', async () => {
    const { past } = await seedSite();
    for (const [path, ready] of [
      ['/', 'Should homework be banned?'],
      ['/?view=archive', 'Past Hot Takes'],
      ['/?view=suggest', 'Your poll question'],
      [`/poll-${past.pollNumber}`, 'How teachers like you voted'],
      ['/faq', 'Frequently Asked Questions'],
      ['/terms', 'Terms of Service'],
      ['/privacy', 'Privacy & Cookie Policy'],
      ['/reminders', 'Reminders'],
      ['/no-such-page', '404 Page Not Found'],
      // One page for every number no poll has, drawn once (pages/client.ts): taken over as this number's.
      ['/poll-999', 'Poll Not Found'],
      // Drawn for the address as the app reads it (shared/page-query.ts), and kept for all its spellings.
      ['/?view=archive&utm_source=mail', 'Past Hot Takes'],
      ['/?utm_source=mail&vote=1', 'Confirm your vote'],
      ['/no/such/page?x=1', '404 Page Not Found'],
    ] as const) {
      const { page, errors } = await newVisitor(t.browser, t.site);
      await page.addInitScript(recordIntlUse);
      const fetched: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) fetched.push(new URL(request.url()).pathname);
      });
      await page.goto(`${t.site.url}${path}`);
      await page.getByText(ready).first().waitFor();
      // Hydrated: the page's title effect has run, so React owns the page.
      await page.waitForFunction(() => document.title.includes('·') || document.title === 'Teacher Hot Take');
      await page.waitForLoadState('networkidle');
      // One request per first view for what the page was drawn with: nothing it shows is fetched
      // again, and a visitor who may vote asks for no ballot until they mean to vote
      // (get-ballot.ts). Today's page asks for the site's stats, a past poll's for its breakdown
      // and this visitor's profile, which neither draws.
      const needs =
        path === '/' || path.startsWith('/?utm_source')
          ? ['/api/stats']
          : path === `/poll-${past.pollNumber}`
            ? [`/api/polls/${past.id}/breakdown`, '/api/me/profile']
            : [];
      expect({ path, fetched }).toEqual({ path, fetched: needs });
      // The 404 page's status is reported by Chromium as a failed load; nothing else may be.
      expect(
        errors.filter((e) => !((ready === '404 Page Not Found' || ready === 'Poll Not Found') && e.includes('404'))),
      ).toEqual([]);
      // A first use of Intl loads its locale data: 40 to 110 ms of main thread before the page
      // answers a tap. No page needs it to start (time.ts, ZoneOffsets; results.ts, formatCount).
      expect({ path, intl: await page.evaluate(() => (window as unknown as IntlRecord).intlUsed) }).toEqual({
        path,
        intl: [],
      });
      await page.context().close();
    }
  }, 120_000);

  it('moves the title, description and canonical link along with in-app navigation', async () => {
    const { past } = await seedSite();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const head = () =>
      page.evaluate(() => ({
        title: document.title,
        description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
        canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      }));
    await page.goto(t.site.url);
    await page.waitForLoadState('networkidle');
    const first = await head();
    expect(first).toEqual({
      title: 'Should homework be banned? · Teacher Hot Take',
      description: expect.stringContaining("Today's hot take. Elementary school only."),
      canonical: `${t.site.publicUrl}/`,
    });
    await page.getByRole('link', { name: 'Results' }).click();
    await page.getByRole('link', { name: 'Should cursive still be taught in elementary school?' }).click();
    await page.getByText('Total: 10 votes').waitFor();
    await expect.poll(head).toEqual({
      title: 'Should cursive still be taught in elementary school? · Teacher Hot Take',
      description: 'Some states have brought it back. Final results: 10 votes. Poll closed.',
      canonical: `${t.site.publicUrl}/poll-${past.pollNumber}`,
    });
    // The same head the server writes for that address.
    const served = await fetchPage(`/poll-${past.pollNumber}`);
    const tag = (test: (a: Record<string, string>, name: string) => boolean) => all(served, test)[0]?.attribs;
    expect(tag((a) => a.name === 'description')?.content).toBe((await head()).description);
    expect(tag((a, name) => name === 'link' && a.rel === 'canonical')?.href).toBe((await head()).canonical);
    await page.getByRole('link', { name: 'FAQ', exact: true }).click();
    await expect.poll(head).toEqual({
      title: 'Frequently Asked Questions · Teacher Hot Take',
      description: 'One education poll a day. Teachers vote anonymously and see the results.',
      canonical: `${t.site.publicUrl}/faq`,
    });
    expect(errors).toEqual([]);
  });

  it('paints the server’s compressed page before it asks for the app’s script, then hands the page to the app', async () => {
    const { past } = await seedSite();
    for (const path of ['/', `/poll-${past.pollNumber}`, '/faq']) {
      // A browser with its own clock: a faked one hides the page's performance entries.
      const context = await t.browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      const response = await page.goto(`${t.site.url}${path}`);
      // Compressed once per page, each response's nonce sent as it is (brotli-parts.ts), and read by Chromium.
      expect(response?.headers()['content-encoding'], path).toBe('br');
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      const timing = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        app: performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/index-[\w-]+\.js$/.test(entry.name))
          .map((entry) => entry.startTime),
      }));
      expect(timing.paint, path).toBeGreaterThan(0);
      expect(timing.app, path).toHaveLength(1);
      expect(timing.app[0], path).toBeGreaterThanOrEqual(timing.paint ?? Infinity);
      await context.close();
    }
  });

  it('draws the controls only a script can work disabled, and enables them once hydrated', async () => {
    const { past } = await seedSite();
    // As the server sends it: Share and the theme choice cannot be used yet, and say so.
    const served = await fetchPage(`/poll-${past.pollNumber}`);
    const byText = (text: string) =>
      all(served, (_, name) => name === 'button').filter((node) => DomUtils.textContent(node) === text);
    expect(byText('Share').map((b) => 'disabled' in b.attribs)).toEqual([true]);
    const theme = all(served, (a, name) => name === 'fieldset' && a.class?.includes('choice-group--segments') === true);
    expect(theme.map((f) => 'disabled' in f.attribs)).toEqual([true, true]); // the breakdown's views, the theme

    // In Chromium, held back until the app has run, then usable.
    const { page, errors } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/poll-${past.pollNumber}`);
    await expect.poll(() => page.getByRole('button', { name: 'Share' }).isEnabled()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Dark' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('does not fetch the stylesheets written into the page when the parts that need them load', async () => {
    const { past } = await seedSite();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.css')) stylesheets.push(request.url());
    });
    // The past poll's page and the FAQ are lazy parts, each drawn by the server with its sheet.
    for (const address of [`/poll-${past.pollNumber}`, '/faq']) {
      await page.goto(`${t.site.url}${address}`);
      await page.waitForLoadState('networkidle');
    }
    expect(stylesheets).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('brings a lazy part’s stylesheet with its code: the Share dialog opens styled, the page behind it locked', async () => {
    await seedSite();
    const { page, errors } = await newVisitor(t.browser, t.site);
    await page.goto(t.site.url);
    // Not in the page the server sent (style above): it comes with the dialog's code.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this poll' });
    await dialog.waitFor();
    // dialog.css: a card fixed in the middle of the screen, over a dimmed page.
    await expect(dialog.evaluate((element) => getComputedStyle(element).position)).resolves.toBe('fixed');
    await expect(
      page.locator('.dialog-overlay').evaluate((element) => getComputedStyle(element).position),
    ).resolves.toBe('fixed');
    // The scroll lock's own <style>, let in by the response's nonce from the page's last element.
    await expect(page.evaluate(() => getComputedStyle(document.body).overflow)).resolves.toBe('hidden');
    expect(errors).toEqual([]);
  });

  it('votes through the API once hydrated, with the same buttons', async () => {
    await seedSite();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    await page.goto(t.site.url);
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'No' }).click();
    await page.locator('.pie-chart').waitFor();
    expect(posts).toEqual([expect.stringMatching(/^\/api\/polls\/\d+\/vote$/)]);
    expect(page.url()).toBe(`${t.site.url}/`);
    expect(errors).toEqual([]);
  });
});

describe('with scripts off', () => {
  const scriptless = (viewport = PHONE) => scriptlessVisitor(t.browser, { viewport });

  it('reads every page, and the first paint looks right at phone and laptop widths', async () => {
    const { past } = await seedSite();
    const { page } = await scriptless();
    await page.goto(t.site.url);
    await expect(page.locator('#poll-question').textContent()).resolves.toBe('Should homework be banned?');
    await saveScreenshots(page, 'no-js-today');

    await page.getByRole('link', { name: 'Results' }).click();
    await page.getByRole('heading', { name: 'Past Hot Takes' }).waitFor();
    await page.getByRole('link', { name: 'Should cursive still be taught in elementary school?' }).click();
    expect(page.url()).toBe(`${t.site.url}/poll-${past.pollNumber}`);
    await page.getByText('Total: 10 votes').waitFor();
    await expect(page.locator('.pie-chart').isVisible()).resolves.toBe(true);
    await saveScreenshots(page, 'no-js-past-poll');

    for (const [link, heading] of [
      ['FAQ', 'Frequently Asked Questions'],
      ['Terms of Service', 'Terms of Service'],
      ['Privacy & Cookies', 'Privacy & Cookie Policy'],
    ] as const) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (link === 'FAQ') {
        // Every answer is in the page, and opens with no script to open it.
        const answer = page.getByText('There is no sign-up and no account.');
        await expect(answer.isVisible()).resolves.toBe(false);
        await page.getByText('Do I need to sign up or create an account to vote?').click();
        await answer.waitFor();
        await saveScreenshots(page, 'no-js-faq');
      }
    }
    // (Axe needs scripts; pages.test.ts checks every screen with them.)
  }, 120_000);

  it('votes, sees the results, is told a second vote is refused, and after the close that voting has closed', async () => {
    await seedSite();
    const { context, page } = await scriptless(LAPTOP);
    const stale = await context.newPage();
    await stale.goto(t.site.url);

    await page.goto(t.site.url);
    await page.getByRole('button', { name: 'Only on weekends' }).click();
    await page.getByText('Your vote is recorded. Here are the results so far.').waitFor();
    expect(new URL(page.url()).search).toBe('?outcome=counted');
    await expect(page.locator('.pie-chart__mine').textContent()).resolves.toBe('Your vote');
    await page.getByText('4 votes').first().waitFor();
    // The breakdown's bars open with no script too.
    await expect(page.locator('.breakdown__content .result-bars').isVisible()).resolves.toBe(false);
    await page.getByText('Poll Results Breakdown').click();
    await page.locator('.breakdown__content .result-bars').waitFor();
    await saveScreenshots(page, 'no-js-voted');

    // The other tab still shows the options: its vote is refused, in words, over the results.
    await stale.getByRole('button', { name: 'Yes' }).click();
    await stale.getByText('You have already voted on this poll.').waitFor();
    await expect(stale.locator('.pie-chart__mine').textContent()).resolves.toBe('Your vote');
    await stale.getByText('4 votes').first().waitFor();

    // A newcomer whose page was open before the close.
    const late = await scriptless();
    await late.page.goto(t.site.url);
    t.site.clock.set(newYorkTime('2026-11-21', '20:00'));
    await late.page.getByRole('button', { name: 'No' }).click();
    await late.page.getByText('Voting has closed for today. Results are live!').waitFor();
    await late.page.locator('.pie-chart').waitFor();
    await late.page.getByText('4 votes').first().waitFor();
  }, 60_000);

  it('holds a vote from a challenged network without scripts, and tells the voter the truth, with no results', async () => {
    const { today } = await seedSite();
    // Staff turned the proof of work on for everyone: a browser without scripts cannot do it.
    await t.site.db.updateTable('polls').set({ challenge_everyone: 1 }).where('id', '=', today.id).execute();
    const { page } = await scriptless();
    await page.goto(t.site.url);
    await page.getByRole('button', { name: 'No' }).click();
    await page.getByText('Your vote is recorded and will be counted after a check.').waitFor();
    // No results that would claim to include it, and no form to vote again.
    expect(await page.locator('.pie-chart').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'No' }).count()).toBe(0);
    const votes = await t.site.db
      .selectFrom('votes')
      .select(['status', 'option_index'])
      .where('poll_id', '=', today.id)
      .where('bucket', 'is not', null)
      .execute();
    expect(votes).toEqual([{ status: 'held', option_index: 1 }]);
  }, 60_000);

  it('refuses a vote posted from another site', async () => {
    const { today } = await seedSite();
    const post = (origin: string) =>
      fetch(`${t.site.url}/polls/${today.id}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: 'option=1',
        redirect: 'manual',
      });
    const foreign = await post('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const own = await post(t.site.url);
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe('/?outcome=counted');
    // Only the site's own post counted.
    const page = await fetchPage('/', (own.headers.get('set-cookie') ?? '').split(';')[0]);
    expect(page.text).toContain('4 votes');
  });
});
