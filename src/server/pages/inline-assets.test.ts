import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineAssets, PAGE_STYLES } from './inline-assets.js';

const BUILT = `<!doctype html>
<html lang="en">
  <head>
    <script src="/theme.js"></script>
    <script type="application/json" id="site-config">__SITE_CONFIG__</script>
    <script type="module" crossorigin src="/assets/index-AbC123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-Xy9.js">
    <link rel="modulepreload" crossorigin href="/assets/dist-Q1.js">
    <link rel="stylesheet" crossorigin href="/assets/style-Zz.css">
    <link rel="stylesheet" crossorigin href="/assets/more-Yy.css">
  </head>
  <body>
    <div id="root"></div>
    <script type="application/json" id="csp-nonce">"__CSP_NONCE__"</script>
  </body>
</html>
`;

const FILES: Record<string, string> = {
  '/theme.js':
    '/*\n * Why this runs first.\n */\n(function () {\n  // Why this attribute.\n  document.documentElement.dataset.x = "1";\n})();\n',
  '/assets/style-Zz.css': 'body{color:red}\n',
  '/assets/more-Yy.css': 'p{margin:0}\n',
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const inlineScripts = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');

describe('inlineAssets', () => {
  it('writes theme.js and the stylesheets into the page and loads the app by a loader, each script named by its hash', () => {
    const { template, scriptHashes, css } = inlineAssets(BUILT, (path) => FILES[path] ?? null);

    expect(template).not.toContain('src="/theme.js"');
    expect(template).not.toContain('rel="stylesheet"');
    expect(template).not.toContain('type="module"');
    expect(template).not.toContain('<link rel="modulepreload"');
    // Where the first sheet was, each page writes its <style>.
    expect(template.split(PAGE_STYLES)).toHaveLength(2);
    expect(css).toBe('body{color:red}\np{margin:0}');

    const [theme, loader] = inlineScripts(template);
    // Without its comments and indentation, line by line.
    expect(theme).toBe('(function () {\ndocument.documentElement.dataset.x = "1";\n})();');
    expect(loader).not.toMatch(/^\s|\/\/ /m);
    expect(loader).toContain('(document, "/assets/index-AbC123.js", ["/assets/react-Xy9.js","/assets/dist-Q1.js"])');
    expect(scriptHashes).toEqual([sha256(theme ?? ''), sha256(loader ?? '')]);
    // The loader comes after the root it looks at, and before the nonce, which stays last.
    expect(template.indexOf('<div id="root">')).toBeLessThan(template.indexOf(loader ?? ''));
    expect(template).toMatch(
      /<\/script>\s*<script type="application\/json" id="csp-nonce">"__CSP_NONCE__"<\/script>\s*<\/body>/,
    );
  });

  it('leaves as files what it cannot read, and a stylesheet that could close its own element', () => {
    const { template, scriptHashes, css } = inlineAssets(BUILT, (path) => {
      if (path === '/assets/more-Yy.css') return 'a::after{content:"</style><script>alert(1)</script>"}';
      return path === '/theme.js' ? null : (FILES[path] ?? null);
    });
    expect(template).toContain('<script src="/theme.js"></script>');
    // Both sheets stay links, in their order.
    expect(template).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/style-Zz.css">\n    <link rel="stylesheet" crossorigin href="/assets/more-Yy.css">',
    );
    expect(css).toBeNull();
    expect(template).not.toContain('alert(1)');
    // The app still loads after the first paint.
    expect(scriptHashes).toHaveLength(1);
  });

  it('changes nothing in a page that is not a build (a template with one module script per page only)', () => {
    const two = BUILT.replace('</head>', '<script type="module" src="/other.js"></script></head>');
    const { template, scriptHashes } = inlineAssets(two, () => null);
    expect(template).toBe(two);
    expect(scriptHashes).toEqual([]);
  });
});
