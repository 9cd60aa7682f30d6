/** Page objects: what a visitor sees and does, in the product's words. */
import type { Locator, Page } from 'playwright-core';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '../../src/server/testing/test-app.js';

export class TodayPage {
  constructor(readonly page: Page) {}

  goto(base: string, query = '') {
    return this.page.goto(`${base}/${query}`);
  }

  get question(): Locator {
    return this.page.locator('#poll-question');
  }

  option(name: string): Locator {
    return this.page.locator('.poll-card__option', { hasText: name });
  }

  get results(): Locator {
    return this.page.locator('.pie-chart');
  }

  get subscribeModal(): Locator {
    return this.page.getByRole('dialog', { name: 'Vote Recorded! 🎉' });
  }

  stat(label: 'Total Polls' | 'Your Votes' | 'Day Streak'): Locator {
    return this.page.locator('.stats-strip__item', { hasText: label }).locator('dd');
  }

  toast(title: string): Locator {
    return this.page.locator('.toast', { hasText: title });
  }
}

/** The admin panel at /admin, as staff use it. */
export class AdminPanel {
  constructor(readonly page: Page) {}

  toast(title: string) {
    return this.page.locator('.toast', { hasText: title });
  }

  section(heading: string) {
    return this.page.locator('section.admin-section', { has: this.page.getByRole('heading', { name: heading }) });
  }

  item(section: string, text: string) {
    return this.section(section).locator('.admin-item', { hasText: text });
  }

  /** The questions a section shows, top to bottom. */
  questions(section: string) {
    return this.section(section).locator('.admin-item__question').allTextContents();
  }

  /** Shows the next page of a list of suggestions. */
  async showMore(section: string) {
    const shown = await this.section(section).locator('.admin-item').count();
    await this.section(section).getByRole('button', { name: 'Show more suggestions' }).click();
    await this.section(section).locator('.admin-item').nth(shown).waitFor();
  }

  /** Goes to a place of the panel by its link in the navigation ("Polls", "Suggestions", …). */
  async go(place: string) {
    const link = this.page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link', { name: place });
    await link.click();
    await this.page.locator('.admin-nav__link[aria-current="page"]', { hasText: place }).waitFor();
  }

  async signIn(password = TEST_ADMIN_PASSWORD, email = TEST_ADMIN_EMAIL) {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Access Admin Panel' }).click();
  }

  async confirm(label: string) {
    const dialog = this.page.getByRole('alertdialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: label }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  async fillPoll({ question, options, date }: { question: string; options: string[]; date?: string }) {
    await this.page.getByLabel('Question').fill(question);
    for (const [i, option] of options.entries()) {
      if (i >= 2) await this.page.getByRole('button', { name: '+ Add option' }).click();
      await this.page.getByLabel(`Option ${i + 1}`, { exact: true }).fill(option);
    }
    if (date) await this.page.getByLabel('Go-live date').fill(date);
  }
}

/** "How teachers like you voted", the "about you" invitation and a question's earlier runs. */
export class TeachersLikeMe {
  constructor(readonly page: Page) {}

  get section(): Locator {
    return this.page.getByRole('region', { name: 'How teachers like you voted' });
  }

  /** A choice of the segmented control: Everyone, Role, Grade level, Region or Experience. */
  view(label: string): Locator {
    return this.section
      .getByRole('group', { name: 'Show the results of' })
      .getByRole('radio', { name: label, exact: true });
  }

  /** The bar group of one group ("School leader"), by its heading. */
  group(label: string): Locator {
    return this.section.locator('.teachers-like-you__group', {
      has: this.page.getByRole('heading', { name: label }),
    });
  }

  /** The group headings of the current choice, as read. */
  groupNames(): Promise<string[]> {
    return this.section.locator('.teachers-like-you__group-name').allTextContents();
  }

  get notes(): Locator {
    return this.section.locator('.teachers-like-you__note');
  }

  get sample(): Locator {
    return this.section.locator('.teachers-like-you__sample');
  }

  get invitation(): Locator {
    return this.page.getByRole('form', { name: 'Tell us about you' });
  }

  /** One answer chip of the invitation: `question` is the group's legend ("Your role"). */
  chip(question: string, answer: string): Locator {
    return this.invitation.getByRole('group', { name: question }).getByRole('radio', { name: answer, exact: true });
  }

  get thanks(): Locator {
    return this.page.locator('.profile-invitation__thanks');
  }

  get opensNote(): Locator {
    return this.page.locator('.breakdowns-open');
  }

  get askedBefore(): Locator {
    return this.page.getByRole('region', { name: /^Asked (before|again)$/ });
  }
}

/** A poll's integrity review in the admin panel's All Polls, opened. */
export class IntegrityReview {
  constructor(
    readonly admin: AdminPanel,
    readonly question: string,
  ) {}

  /** The poll's own place, where its review is a tab. */
  get item(): Locator {
    return this.admin.page.locator('section.admin-poll');
  }

  /** From All Polls, the poll's "Integrity review" link. */
  async open() {
    await this.admin
      .item('All Polls', this.question)
      .getByRole('link', { name: /Integrity review/ })
      .click();
    await this.item.getByRole('heading', { name: 'Votes per minute' }).waitFor();
  }

  burst(label: string): Locator {
    return this.item.getByRole('listitem', { name: `Flagged burst from ${label}` });
  }

  /** "Results now" or "Without this burst": each option's "NN% · N votes". */
  async results(burst: Locator, which: 'Results now' | 'Without this burst'): Promise<string[]> {
    const block = burst.locator('.integrity-burst__results > div', { hasText: which });
    return block.locator('.result-bars__numbers').allTextContents();
  }

  logRow(text: string | RegExp): Locator {
    return this.item.getByRole('region', { name: 'Integrity log' }).getByRole('row').filter({ hasText: text });
  }
}
