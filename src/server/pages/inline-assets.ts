/**
 * What a first visit waits for before it paints, taken out of its way. The built index.html
 * names three kinds of file in its head, and each costs a phone on slow school Wi-Fi a round
 * trip before anything shows:
 *
 * - theme.js (the stored Light/Dark choice, which must run before the body paints) is written
 *   into the page, allowed by its hash in the CSP;
 * - the stylesheet is written into the page as a <style>, with the sheets of the lazy parts the
 *   page drew (page-styles.ts), allowed by its hash in the page's CSP;
 * - the app's module script and its preloads are requested by a small loader once the server's
 *   markup has painted (or at once when there is none to paint, or the tab is hidden), so the
 *   question shows without waiting for ~90 KB of JavaScript. The page is usable meanwhile: its
 *   links and forms work without scripts, and script-only controls are drawn disabled.
 *
 * Each file is read once, at start. The loader's and theme.js's hashes go into the page CSP,
 * which still allows no other inline script.
 */
import { STYLE_NONCE_ELEMENT_ID } from '../../shared/style-nonce.js';
import { cspHash } from '../http/security.js';

export interface InlinedTemplate {
  template: string;
  /** CSP sources ('sha256-…') of the inline scripts written in. */
  scriptHashes: string[];
  /**
   * The stylesheets the template linked, joined: each page writes them in a <style>, with the
   * sheets of the lazy parts it drew (page-styles.ts), in place of PAGE_STYLES. Null when they
   * stay links.
   */
  css: string | null;
}

/** Where a page's <style> goes in the template. */
export const PAGE_STYLES = '__PAGE_STYLES__';

/** Reads a built file by its address on the site ('/theme.js', '/assets/style-….css'); null when absent. */
export type ReadAsset = (urlPath: string) => string | null;

const THEME_SCRIPT = /<script src="(\/theme\.js)"><\/script>/;
const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[^"]+\.css)">/g;
const MODULE_SCRIPT = /\s*<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/g;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"(?: crossorigin)? href="([^"]+)">/g;

/**
 * Loads the app once the page has shown its content: on the first contentful paint; at once
 * when the root holds no text (a page the browser draws, a redirect: nothing would paint) or the
 * page is hidden (it may never paint); when the page is hidden before it painted; and, should
 * the paint go unreported, 2 s after the load event. Browsers that report no paint timing load
 * it at once. Plain ES5, since it runs before anything else.
 */
function appLoader(main: string, preloads: readonly string[]): string {
  return `(function (d, main, preloads) {
  var loaded = false;
  function add(tag, props) {
    var el = d.createElement(tag);
    el.crossOrigin = '';
    for (var key in props) el[key] = props[key];
    d.head.appendChild(el);
  }
  function load() {
    if (loaded) return;
    loaded = true;
    for (var i = 0; i < preloads.length; i++) add('link', { rel: 'modulepreload', href: preloads[i] });
    add('script', { type: 'module', src: main });
  }
  var root = d.getElementById('root');
  try {
    if (root && /\\S/.test(root.textContent) && d.visibilityState === 'visible' && PerformanceObserver.supportedEntryTypes.indexOf('paint') >= 0) {
      new PerformanceObserver(function (list, observer) {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        load();
      }).observe({ type: 'paint', buffered: true });
      d.addEventListener('visibilitychange', load);
      // Should the paint go unreported, the app still comes.
      addEventListener('load', function () { setTimeout(load, 2000); });
      return;
    }
  } catch (error) {
    // No paint timing here: load at once.
  }
  load();
})(document, ${JSON.stringify(main)}, ${JSON.stringify(preloads)});`;
}

/**
 * A script as every page carries it: without its opening comment, its comment lines and its
 * indentation, which are for the people who read the source. Line by line, so no statement
 * runs into another; for the two small scripts here, which hold no multi-line strings.
 */
export function compactScript(source: string): string {
  return source
    .replace(/^\s*\/\*[\s\S]*?\*\//, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
}

export function inlineAssets(template: string, readAsset: ReadAsset): InlinedTemplate {
  const scriptHashes: string[] = [];
  let html = template.replace(THEME_SCRIPT, (tag, src: string) => {
    const file = readAsset(src);
    const source = file === null ? undefined : compactScript(file);
    if (source === undefined) return tag;
    scriptHashes.push(cspHash(source));
    return `<script>${source}</script>`;
  });
  const sheets = [...html.matchAll(STYLESHEET)].map((match) => readAsset(match[1] ?? ''));
  let css: string | null = null;
  // A sheet that could end its own element stays a file, and so do the others with it.
  if (sheets.length > 0 && sheets.every((sheet) => sheet !== null && !/<\/style/i.test(sheet))) {
    css = sheets.map((sheet) => (sheet ?? '').trim()).join('\n');
    let first = true;
    html = html.replace(STYLESHEET, () => {
      if (!first) return '';
      first = false;
      return PAGE_STYLES;
    });
  }

  const modules = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1] ?? '');
  const main = modules[0];
  if (modules.length !== 1 || main === undefined) return { template: html, scriptHashes, css };
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1] ?? '');
  html = html.replace(MODULE_SCRIPT, '').replace(MODULE_PRELOAD, '');
  const loader = compactScript(appLoader(main, preloads));
  // Before the nonce, which stays last (brotli-parts.ts); else at the end of the body.
  const nonceAt = html.indexOf(`<script type="application/json" id="${STYLE_NONCE_ELEMENT_ID}">`);
  const at = nonceAt >= 0 ? nonceAt : html.lastIndexOf('</body>');
  if (at < 0) throw new Error('index.html has no </body> for the app loader');
  scriptHashes.push(cspHash(loader));
  html = `${html.slice(0, at)}<script>${loader}</script>\n    ${html.slice(at)}`;
  return { template: html, scriptHashes, css };
}
