/**
 * The admin panel's places (issue 36): each at its own address, drawn on the server, opened
 * by a link, the back button or a deep link (signing in there when signed out); the navigation
 * shows each role what it may open, folds on a phone, and works by keyboard; every place is
 * axe-clean in light and dark, with screenshots at phone and laptop widths, and no wider than a phone on one.
 */
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/staff/password.js';
import { insertStaff } from '../../src/server/staff/staff.repository.js';
import type { StaffRole } from '../../src/shared/staff-permissions.js';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { STAFF_TEST_PASSWORD } from '../../src/server/testing/staff.js';
import { AdminPanel } from './pages.js';
import { browserTest, expectAccessible, LAPTOP, newVisitor, PHONE, saveScreenshots } from './support.js';

const t = browserTest();

/** Each place: its address after /admin, and a heading that shows it is drawn. */
const PLACES = [
  { name: 'today', path: '', heading: 'Needs attention' },
  { name: 'polls', path: '/polls', heading: 'All Polls' },
  { name: 'poll', path: '/polls/1', heading: 'Should phones be banned in class?' },
  { name: 'poll-integrity', path: '/polls/1/integrity', heading: 'Votes per minute' },
  { name: 'suggestions', path: '/suggestions', heading: 'Community Poll Suggestions' },
  { name: 'staff', path: '/staff', heading: /^Staff/ },
  { name: 'audit', path: '/audit', heading: 'Audit log' },
  { name: 'account', path: '/account', heading: /^Your sign-in/ },
] as const;

async function addStaff(role: StaffRole) {
  const email = `${role}@school.example`;
  await insertStaff(
    t.site.db,
    { email, displayName: `A ${role}`, role, passwordHash: await hashPassword(STAFF_TEST_PASSWORD) },
    t.site.clock.now().toISOString(),
  );
  return email;
}

async function signedIn(path: string, viewport = LAPTOP, role?: StaffRole) {
  const visitor = await newVisitor(t.browser, t.site, viewport);
  await visitor.page.goto(`${t.site.url}/admin${path}`);
  const admin = new AdminPanel(visitor.page);
  if (role) await admin.signIn(STAFF_TEST_PASSWORD, await addStaff(role));
  else await admin.signIn();
  await admin.toast('Access granted').waitFor();
  return { ...visitor, admin };
}

const navLinks = (page: AdminPanel['page']) =>
  page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link').allTextContents();

describe('the admin panel’s places', () => {
  it('answers each place’s address with the page drawn on the server, and any other with the 404', async () => {
    for (const { path } of PLACES) {
      const response = await fetch(`${t.site.url}/admin${path}`);
      expect(response.status, path).toBe(200);
      const body = await response.text();
      expect(body, path).toContain('Checking your sign-in…');
      expect(body, path).toContain('noindex');
    }
    for (const path of ['/nothing', '/polls/0', '/staff/2', '/polls/1/votes']) {
      expect((await fetch(`${t.site.url}/admin${path}`)).status, path).toBe(404);
    }
  });

  it('signs a signed-out visit in at the address asked for, and keeps it there', async () => {
    const { page } = await signedIn('/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/audit');
  });

  it('shows each role only the places it may open, and refuses the others by address', async () => {
    const owner = await signedIn('');
    await owner.page.getByRole('heading', { name: 'Needs attention' }).waitFor();
    expect(await navLinks(owner.page)).toEqual([
      'Today',
      'Polls',
      'Suggestions',
      'Topics',
      'Staff',
      'Audit log',
      'Your sign-in',
    ]);

    const editor = await signedIn('', LAPTOP, 'editor');
    await editor.page.getByRole('heading', { name: 'Needs attention' }).waitFor();
    expect(await navLinks(editor.page)).toEqual(['Today', 'Polls', 'Your sign-in']);

    const moderator = await signedIn('/staff', LAPTOP, 'moderator');
    await moderator.page.getByText('Your role cannot open this part of the panel.').waitFor();
    expect(await navLinks(moderator.page)).toEqual(['Today', 'Suggestions', 'Your sign-in']);
    expect(await moderator.page.getByRole('heading', { name: /^Staff/ }).count()).toBe(0);
  });

  it('goes from place to place by keyboard, and back and forward with the browser’s buttons', async () => {
    await seedPoll(t.site.db, { question: 'Should phones be banned in class?', options: ['Yes', 'No'] });
    const { page } = await signedIn('');
    await page.getByRole('heading', { name: 'Needs attention' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Admin panel' });
    await nav.getByRole('link', { name: 'Polls' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'All Polls' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/polls');
    // The keyboard starts again at the place it moved to.
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('admin__place');
    expect(await nav.getByRole('link', { name: 'Polls' }).getAttribute('aria-current')).toBe('page');

    await page.getByRole('link', { name: 'Open poll #1' }).click();
    await page.getByRole('heading', { name: 'Should phones be banned in class?' }).waitFor();
    await page.getByRole('link', { name: 'Integrity review', exact: true }).click();
    await page.getByRole('heading', { name: 'Votes per minute' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/polls/1/integrity');

    await page.goBack();
    await page.getByRole('button', { name: 'Voter emails' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/polls/1');
    await page.goBack();
    await page.getByRole('heading', { name: 'All Polls' }).waitFor();
    await page.goForward();
    expect(new URL(page.url()).pathname).toBe('/admin/polls/1');
  });

  it('folds the navigation behind a button on a phone', async () => {
    const { page } = await signedIn('', PHONE);
    const menu = page.getByRole('button', { name: /^Menu/ });
    await menu.waitFor();
    const staffLink = page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link', { name: 'Staff' });
    expect(await staffLink.isVisible()).toBe(false);
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await staffLink.click();
    await page.getByRole('heading', { name: /^Staff/ }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await staffLink.isVisible()).toBe(false);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has every place accessible in ${scheme}${scheme === 'light' ? ', each saved at phone and laptop widths' : ''}`, async () => {
      await seedPoll(t.site.db, {
        question: 'Should phones be banned in class?',
        options: ['Yes', 'No'],
        votes: [4, 3],
      });
      const { page } = await signedIn('');
      await page.emulateMedia({ colorScheme: scheme });
      for (const { name, path, heading } of PLACES) {
        await page.goto(`${t.site.url}/admin${path}`);
        await page.getByRole('heading', { name: heading }).first().waitFor();
        await expectAccessible(page);
        if (scheme === 'light') await saveScreenshots(page, `admin-place-${name}`);
        else {
          // No place is wider than a phone: a wide table scrolls inside its frame.
          await page.setViewportSize(PHONE);
          expect([name, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([name, PHONE.width]);
          await page.setViewportSize(LAPTOP);
        }
      }
      // Eight places, each read by axe (and in light drawn twice more): more than one test's usual time.
    }, 120_000);
  }
});
