/**
 * Invite and sign-in links carry their token in the address's fragment, which the browser never
 * sends (issue 34): through a whole invite (made in the panel, e-mailed, opened, accepted) and a
 * one-time sign-in link, the server is never asked for a URL holding a token, and the address
 * bar drops it as soon as the page reads it. An old link, with the token in its query, is told
 * apart and refused with a clear sentence.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { readStaffLink, staffLink } from '../../src/shared/staff-links.js';
import { createAdminAuth } from '../../src/server/staff/admin-auth.service.js';
import { AdminPanel } from './pages.js';
import { browserTest, LAPTOP, newVisitor } from './support.js';

const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-staff-links-'));
afterAll(() => fs.rmSync(mailDir, { recursive: true, force: true }));
const t = browserTest({ env: { MAIL_OUTBOX_DIR: mailDir } });

/** Every URL (path and query) the server is asked for from now on, as it arrives. */
function requestedUrls(): string[] {
  const urls: string[] = [];
  t.site.app.server.on('request', (request: { url?: string }) => urls.push(request.url ?? ''));
  return urls;
}

/** The text of the one e-mail in the outbox folder. */
async function mailedText(): Promise<string> {
  const [file] = fs.readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
  if (!file) throw new Error('no e-mail was written');
  return (await simpleParser(fs.readFileSync(path.join(mailDir, file)))).text ?? '';
}

describe('staff links', () => {
  it('keeps invite and sign-in tokens out of every URL the server is asked for, and out of the address bar', async () => {
    const urls = requestedUrls();
    const { page } = await newVisitor(t.browser, t.site, LAPTOP);
    const owner = new AdminPanel(page);
    await page.goto(`${t.site.publicUrl}/admin/staff`);
    await owner.signIn();
    const staff = owner.section('Staff');
    await staff.getByLabel('Invite by email').fill('new.editor@school.example');
    await staff.getByRole('button', { name: 'Invite' }).click();
    await owner.toast('Invite sent').waitFor();
    const shown = (await staff.locator('.admin-staff__link code').textContent()) ?? '';
    expect(new URL(shown).search).toBe('');
    const shownToken = readStaffLink(new URL(shown).hash)?.token ?? '';
    expect(shownToken).not.toBe('');

    // The e-mailed link, a token of its own, opened by the person invited.
    await t.site.app.jobs.sendMail();
    const mailed = /(http\S+\/admin#invite=\S+)/.exec(await mailedText())?.[1] ?? '';
    const mailedToken = readStaffLink(new URL(mailed).hash)?.token ?? '';
    expect(mailedToken).not.toBe('');
    const invited = await newVisitor(t.browser, t.site, LAPTOP);
    await invited.page.goto(mailed);
    await invited.page.getByRole('heading', { name: 'Join the staff' }).waitFor();
    expect(invited.page.url()).toBe(`${t.site.publicUrl}/admin`);
    await invited.page.getByLabel('Your name').fill('Nell Editor');
    await invited.page.getByLabel('New password').fill('a long new editor passphrase');
    await invited.page.getByRole('button', { name: 'Join with this password' }).click();
    await invited.page.locator('.admin__who', { hasText: 'Nell Editor · Editor' }).waitFor();

    // A one-time sign-in link, as `npm run staff -- sign-in-link` prints it.
    const auth = createAdminAuth({
      db: t.site.db,
      clock: t.site.clock,
      config: t.site.config,
      legacyPasswordHash: null,
      keyedHash: (value) => Promise.resolve(value),
      secureCookies: false,
    });
    const signInToken = (await auth.signInLink())?.token ?? '';
    const elsewhere = await newVisitor(t.browser, t.site, LAPTOP);
    await elsewhere.page.goto(staffLink(t.site.publicUrl, 'sign-in', signInToken));
    await elsewhere.page.locator('.admin__who', { hasText: 'owner · Owner' }).waitFor();
    expect(elsewhere.page.url()).toBe(`${t.site.publicUrl}/admin`);

    // The server saw the flows (the lookup too, by POST), and never a token in an address.
    expect(urls).toContain('/api/admin/invites/lookup');
    expect(urls).toContain('/api/admin/sign-in-link');
    for (const token of [shownToken, mailedToken, signInToken])
      expect(urls.filter((url) => url.includes(token))).toEqual([]);
  });

  it('says an old link, with its token in the query, no longer works, and drops it from the address', async () => {
    const { page } = await newVisitor(t.browser, t.site, LAPTOP);
    await page.goto(`${t.site.publicUrl}/admin?invite=an-old-token`);
    await page
      .getByRole('alert')
      .getByText('This invite link is in an old form that no longer works. Ask the site owner for a new invite.')
      .waitFor();
    expect(page.url()).toBe(`${t.site.publicUrl}/admin`);
    await page.goto(`${t.site.publicUrl}/admin?sign-in=an-old-token`);
    await page
      .getByRole('alert')
      .getByText('This sign-in link is in an old form that no longer works.', { exact: false })
      .waitFor();
  });
});
