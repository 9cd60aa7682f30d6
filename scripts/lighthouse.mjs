#!/usr/bin/env node
/**
 * `npm run lighthouse [BASE_URL]`: Lighthouse 12 (mobile preset: simulated slow 4G and a
 * mid-range phone) on /, /?view=archive, /poll-N (the newest past poll), /faq, /methods and
 * /reminders of a running
 * site (default http://localhost:3000; run `npm run demo` first for believable data), with
 * Debian's Chromium. Each page is measured LIGHTHOUSE_RUNS times (default 3) and the median of
 * each figure is printed: simulated throttling is noisy on a small VM. Targets: performance
 * >= 0.98, accessibility 1.0, LCP <= 1.2 s, CLS <= 0.01, TBT <= 50 ms. Exits 1 when one is missed.
 * LIGHTHOUSE_VOTER=<voter cookie> visits as that browser (the value of the voter_id cookie the
 * site set, signed: a bare id is no voter): after a vote, `/` shows the results, the chart and
 * what follows them instead of the question.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const base = (process.argv[2] ?? process.env.LIGHTHOUSE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const voter = process.env.LIGHTHOUSE_VOTER;

const pastPolls = await (await fetch(`${base}/api/polls`)).json();
const paths = [
  '/',
  '/?view=archive',
  ...(pastPolls[0] ? [`/poll-${pastPolls[0].pollNumber}`] : []),
  '/faq',
  '/methods',
  '/reminders',
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
let missed = 0;
try {
  console.log(`Lighthouse (mobile), median of ${runs} runs, ${base}${voter ? ', as a voter who voted' : ''}`);
  console.log(
    'page'.padEnd(20),
    'perf'.padStart(5),
    'a11y'.padStart(5),
    'LCP s'.padStart(6),
    'CLS'.padStart(6),
    'FCP s'.padStart(6),
    'TBT ms'.padStart(7),
  );
  for (const path of paths) {
    const figures = [];
    for (let run = 0; run < runs; run += 1) {
      const { lhr } = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        ...(voter ? { extraHeaders: { Cookie: `voter_id=${voter}` } } : {}),
      });
      figures.push({
        performance: lhr.categories.performance.score,
        accessibility: lhr.categories.accessibility.score,
        lcp: lhr.audits['largest-contentful-paint'].numericValue / 1000,
        cls: lhr.audits['cumulative-layout-shift'].numericValue,
        fcp: lhr.audits['first-contentful-paint'].numericValue / 1000,
        tbt: lhr.audits['total-blocking-time'].numericValue,
      });
    }
    const m = (key) => median(figures.map((f) => f[key]));
    const met =
      m('performance') >= 0.98 && m('accessibility') >= 1 && m('lcp') <= 1.2 && m('cls') <= 0.01 && m('tbt') <= 50;
    if (!met) missed += 1;
    console.log(
      path.padEnd(20),
      m('performance').toFixed(2).padStart(5),
      m('accessibility').toFixed(2).padStart(5),
      m('lcp').toFixed(2).padStart(6),
      m('cls').toFixed(3).padStart(6),
      m('fcp').toFixed(2).padStart(6),
      String(Math.round(m('tbt'))).padStart(7),
      met ? '' : '  MISSED',
    );
  }
} finally {
  await chrome.kill();
}
console.log(missed === 0 ? 'All targets met.' : `${missed} page(s) missed a target.`);
process.exitCode = missed === 0 ? 0 : 1;
