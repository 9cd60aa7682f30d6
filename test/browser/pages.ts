/** Page objects: what a visitor sees and does, in the product's words. */
import type { Locator, Page } from 'playwright-core';

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
