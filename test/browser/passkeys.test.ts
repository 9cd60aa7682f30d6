/**
 * Passkeys in real Chromium, through its virtual authenticator (CDP WebAuthn): an invited editor
 * registers one and signs in; a ceremony without user verification is refused; a second passkey
 * works; a removed one no longer does. The site is opened at its host name (localhost), as
 * passkeys require.
 */
import type { CDPSession, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_SIGN_IN } from '../../src/server/testing/test-app.js';
import { AdminPanel } from './pages.js';
import { browserTest, expectAccessible, LAPTOP, newVisitor, saveScreenshots } from './support.js';

const t = browserTest();

/** The site's owner invites an editor, as the panel does; the invite link it shows. */
async function inviteEditor(email: string): Promise<string> {
  const signIn = await fetch(`${t.site.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(TEST_SIGN_IN),
  });
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
  const invite = await fetch(`${t.site.url}/api/admin/invites`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ email, role: 'editor' }),
  });
  expect(invite.status).toBe(201);
  return ((await invite.json()) as { link: string }).link;
}

async function authenticator(cdp: CDPSession, verifiesUser = true) {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: verifiesUser,
      isUserVerified: verifiesUser,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
}

/** Signs in with a passkey from the sign-in screen; how long it took, from the click to the panel. */
async function signInWithPasskey(page: Page): Promise<number> {
  const started = performance.now();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('heading', { name: 'Your sign-in (Sam Editor)' }).waitFor();
  return performance.now() - started;
}

describe('passkeys', () => {
  it('an invited editor registers one, signs in with it, adds a second; a removed one no longer signs in', async () => {
    const link = await inviteEditor('sam@school.example');
    expect(new URL(link).hostname).toBe('localhost');
    const { page, context } = await newVisitor(t.browser, t.site, LAPTOP);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const first = await authenticator(cdp);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Join the staff' }).waitFor();
    await page.getByLabel('Your name').fill('Sam Editor');
    await page.getByRole('button', { name: 'Create a passkey and join' }).click();
    await page.locator('.admin__who', { hasText: 'Sam Editor · Editor' }).waitFor();
    // An editor's panel: polls, but neither staff nor the audit log.
    const admin = new AdminPanel(page);
    await admin.go('Polls');
    await saveScreenshots(page, 'admin-editor');
    const nav = page.getByRole('navigation', { name: 'Admin panel' });
    expect(await nav.getByRole('link', { name: 'Staff' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await admin.go('Your sign-in');
    await page.getByRole('heading', { name: 'Your sign-in (Sam Editor)' }).waitFor();

    await signOut(page);
    const took = await signInWithPasskey(page);
    console.warn(`passkey sign-in, click to panel: ${Math.round(took)} ms`);

    // A second passkey, on another authenticator (the first one's credential is set aside).
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: first });
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first });
    const second = await authenticator(cdp);
    await page.getByLabel('Name for a new passkey').fill('Phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('button', { name: 'Remove Phone' }).waitFor();
    await signOut(page);
    await signInWithPasskey(page);

    // The first passkey removed in the panel: its authenticator back, it signs nobody in.
    await page.getByRole('button', { name: 'Remove First passkey' }).click();
    await page.locator('.toast', { hasText: 'Passkey removed' }).waitFor();
    await signOut(page);
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: second });
    const again = await authenticator(cdp);
    for (const credential of credentials)
      await cdp.send('WebAuthn.addCredential', { authenticatorId: again, credential });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.locator('.toast', { hasText: 'Passkey not accepted' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Your sign-in (Sam Editor)' }).count()).toBe(0);
  });

  it('refuses a ceremony without user verification', async () => {
    const link = await inviteEditor('pat@school.example');
    const { page, context } = await newVisitor(t.browser, t.site, LAPTOP);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    await authenticator(cdp, false);
    await page.goto(link);
    await page.getByLabel('Your name').fill('Pat');
    await page.getByRole('button', { name: 'Create a passkey and join' }).click();
    await page.locator('.toast', { hasText: 'The passkey was not made' }).waitFor();
    const accounts = await t.site.db
      .selectFrom('staff')
      .select('email')
      .where('email', '=', 'pat@school.example')
      .execute();
    expect(accounts).toEqual([]);
  });
});

describe('the owner’s screens', () => {
  it('shows staff, sessions and the audit log to the owner, accessibly, with the log’s check', async () => {
    await inviteEditor('kim@school.example');
    const { page } = await newVisitor(t.browser, t.site, LAPTOP);
    await page.goto(`${t.site.publicUrl}/admin/staff`);
    await page.getByLabel('Email').fill(TEST_SIGN_IN.email);
    await page.getByLabel('Password').fill(TEST_SIGN_IN.password);
    await page.getByRole('button', { name: 'Access Admin Panel' }).click();
    const admin = new AdminPanel(page);
    /** Saves one section at phone and laptop widths. */
    const shoot = async (section: Locator, name: string) => {
      for (const [label, size] of [
        ['phone', { width: 390, height: 844 }],
        ['laptop', LAPTOP],
      ] as const) {
        await page.setViewportSize(size);
        await section.screenshot({ path: `test-results/screenshots/${name}-${label}.png` });
      }
      await page.setViewportSize(LAPTOP);
    };
    const staff = page.locator('section', { has: page.getByRole('heading', { name: /^Staff/ }) });
    await staff.getByText('kim@school.example as Editor').waitFor();
    await expectAccessible(page);
    await shoot(staff, 'admin-staff');

    await admin.go('Audit log');
    const audit = page.locator('section', { has: page.getByRole('heading', { name: 'Audit log' }) });
    await audit.getByText('The log is intact').waitFor();
    await audit.getByRole('cell', { name: 'invite.create' }).waitFor();
    await expectAccessible(page);
    await shoot(audit, 'admin-audit');

    await admin.go('Your sign-in');
    const account = page.locator('section', { has: page.getByRole('heading', { name: /^Your sign-in/ }) });
    await account.getByRole('heading', { name: /sessions/i }).waitFor();
    await expectAccessible(page);
    await shoot(account, 'admin-sessions');
    await saveScreenshots(page, 'admin-owner');
  });
});
