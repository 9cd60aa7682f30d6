/**
 * "Add a daily reminder", in Chromium: the form under the stats strip downloads a calendar file
 * for the time picked, with scripts on and off, and the file is what a calendar reads.
 */
import fs from 'node:fs';
import type ICAL from 'ical.js';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readCalendarEvent } from '../../src/server/testing/calendar.js';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, expectAccessible, newVisitor, scriptlessVisitor } from './support.js';

const t = browserTest();

/** Opens the reminder, picks `time`, and returns the calendar file Chromium downloaded. */
async function addReminder(page: Page, time: string): Promise<{ name: string; text: string }> {
  await page.getByText('Add a daily reminder').click();
  await page.getByLabel('Remind me every weekday at').fill(time);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Add to calendar' }).click(),
  ]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

/** The event's start, its zone and its rule, as ical.js reads the file. */
function readEvent(text: string) {
  const { vevent, event } = readCalendarEvent(text);
  const rule = vevent.getFirstPropertyValue('rrule') as ICAL.Recur;
  return {
    start: event.startDate.toString().slice(11),
    zone: event.startDate.zone.tzid,
    days: rule.getComponent('byday'),
    alarms: vevent.getAllSubcomponents('valarm').length,
  };
}

describe('the daily reminder', () => {
  it('downloads a weekday event at the time picked, in the site’s time zone, with an alarm', async () => {
    await seedPoll(t.site.db, { question: 'Should homework be banned?', options: ['Yes', 'No'] });
    const { page, errors } = await newVisitor(t.browser, t.site);
    await page.goto(t.site.url);
    await new TodayPage(page).question.waitFor();
    await page.getByText('Add a daily reminder').waitFor();
    expect(await page.getByLabel('Remind me every weekday at').isVisible()).toBe(false);
    const { name, text } = await addReminder(page, '07:45');
    await expectAccessible(page);
    expect(name).toBe('hot-take-reminder.ics');
    expect(readEvent(text)).toEqual({
      start: '07:45:00',
      zone: 'America/New_York',
      days: ['MO', 'TU', 'WE', 'TH', 'FR'],
      alarms: 1,
    });
    expect(errors).toEqual([]);
  });

  it('works with scripts off, at the default 3:30 pm', async () => {
    await seedPoll(t.site.db, { question: 'Should homework be banned?', options: ['Yes', 'No'] });
    const { page } = await scriptlessVisitor(t.browser);
    await page.goto(t.site.url);
    await page.getByText('Add a daily reminder').click();
    expect(await page.getByLabel('Remind me every weekday at').inputValue()).toBe('15:30');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Add to calendar' }).click(),
    ]);
    expect(readEvent(fs.readFileSync(await download.path(), 'utf8')).start).toBe('15:30:00');
  });
});
