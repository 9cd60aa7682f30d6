/**
 * The staff-room sheet in Chromium: page.pdf() gives one page, on A4 and on Letter, holding the
 * question and the results; its QR code, read back from a screenshot by a QR decoder, opens the
 * poll's page. Today's poll prints "Vote today" with no results before the close.
 */
import fs from 'node:fs';
import path from 'node:path';
import jsQRModule from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertSetAsideVotes, seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, expectAccessible, newVisitor } from './support.js';

const t = browserTest();

/** jsqr is CommonJS with a default export: Node hands over its module object, Vite the function. */
const jsQR: typeof jsQRModule.default = 'default' in jsQRModule ? jsQRModule.default : jsQRModule;
const OUT = path.resolve('test-results', 'print');

/** The PDF's pages and the text of each, as PDF.js reads them. */
async function readPdf(pdf: Buffer) {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const texts: string[] = [];
  for (let n = 1; n <= document.numPages; n += 1) {
    const content = await (await document.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return { pages: document.numPages, texts };
}

/** What the sheet's QR code says, read from a screenshot of it. */
async function decodeQr(page: Page): Promise<string | undefined> {
  const png = PNG.sync.read(await page.locator('.scan svg').screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('the staff-room sheet', () => {
  it('prints a past poll on one page, A4 or Letter, with its results, the votes set aside and a QR code to its page', async () => {
    const past = await seedPoll(t.site.db, {
      question: 'Should cursive still be taught in elementary school?',
      description: 'Some states have brought it back.',
      options: ['Yes', 'No', 'Only reading it', 'Not sure', 'It depends', 'Ask me later'],
      status: 'past',
      liveDate: '2026-11-20',
      votes: [50, 40, 10, 3, 2, 1],
    });
    // Six options and the line of votes set aside: the fullest sheet a past poll makes.
    await insertSetAsideVotes(t.site.db, past, 1234);
    // An A4 sheet's width at 96 dpi, so the screenshot looks like the paper.
    const { page, errors } = await newVisitor(t.browser, t.site, { width: 794, height: 1123 });
    // The past-poll page's Print action opens the sheet.
    await page.goto(`${t.site.url}/poll-${past.pollNumber}`);
    await page.getByRole('link', { name: 'Print' }).click();
    await page.getByRole('heading', { name: past.question }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/poll-${past.pollNumber}/print`);
    await expectAccessible(page);

    fs.mkdirSync(OUT, { recursive: true });
    await page.emulateMedia({ media: 'print' });
    for (const format of ['A4', 'Letter'] as const) {
      const pdf = await page.pdf({ format, printBackground: true });
      fs.writeFileSync(path.join(OUT, `poll-past-${format}.pdf`), pdf);
      const { pages, texts } = await readPdf(pdf);
      expect(pages, format).toBe(1);
      const text = texts[0]?.replace(/\s+/g, ' ') ?? '';
      expect(text.replace(/\s/g, ''), format).toContain(past.question.replace(/\s/g, ''));
      expect(text, format).toContain('47% · 50 votes');
      expect(text, format).toContain('n = 106 votes');
      expect(text, format).toContain('1,234 votes set aside after review. How we keep results honest:');
      expect(text, format).toContain('November 20, 2026');
    }
    await page.screenshot({ path: path.join(OUT, 'poll-past-print.png'), fullPage: true });
    expect(await decodeQr(page)).toBe(`${t.site.publicUrl}/poll-${past.pollNumber}`);
    expect(errors).toEqual([]);
  });

  it("prints today's poll as “Vote today”, with its QR code and no results before the close", async () => {
    const today = await seedPoll(t.site.db, {
      question: 'Should staff meetings be capped at 30 minutes?',
      options: ['Yes', 'No'],
      votes: [7, 3],
    });
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/poll-${today.pollNumber}/print`);
    await page.emulateMedia({ media: 'print' });
    const pdf = await page.pdf({ format: 'Letter' });
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'poll-today-Letter.pdf'), pdf);
    const { pages, texts } = await readPdf(pdf);
    expect(pages).toBe(1);
    const text = texts[0]?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Vote today');
    // PDF.js may split a word at a ligature (“sta ff”): compare without spaces.
    expect(text.replace(/\s/g, '')).toContain(today.question.replace(/\s/g, ''));
    expect(text).toContain('Voting closes at 8:00 PM');
    expect(text).not.toMatch(/%|7 votes|n = /);
    expect(await decodeQr(page)).toBe(`${t.site.publicUrl}/poll-${today.pollNumber}`);
  });

  it('shows the QR code and the embed code in the share overlay', async () => {
    const today = await seedPoll(t.site.db, { options: ['Yes', 'No', 'Maybe'] });
    const { page, errors } = await newVisitor(t.browser, t.site);
    const todayPage = new TodayPage(page);
    await todayPage.goto(t.site.url);
    await todayPage.question.waitFor();
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this poll' });
    const qr = dialog.getByRole('img', { name: `QR code that opens ${t.site.publicUrl}/poll-${today.pollNumber}` });
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await dialog.getByText('Embed', { exact: true }).click();
    const code = await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
    expect(code).toBe(
      `<iframe src="${t.site.publicUrl}/embed/poll-${today.pollNumber}" title="${today.question}" width="480" height="336" style="border:0;max-width:100%" loading="lazy"></iframe>`,
    );
    await dialog.getByRole('button', { name: 'Copy Code' }).click();
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });
});
