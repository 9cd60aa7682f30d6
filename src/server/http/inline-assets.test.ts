import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineAssets } from './inline-assets.js';

const BUILT = `<!doctype html>
<html lang="en">
  <head>
    <script src="/theme.js"></script>
    <script type="application/json" id="site-config">__SITE_CONFIG__</script>
    <script type="module" crossorigin src="/assets/index-AbC123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-Xy9.js">
    <link rel="modulepreload" crossorigin href="/assets/dist-Q1.js">
    <link rel="stylesheet" crossorigin href="/assets/style-Zz.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

const FILES: Record<string, string> = {
  '/theme.js': '\n(function () { document.documentElement.dataset.x = "1"; })();\n',
  '/assets/style-Zz.css': 'body{color:red}\n',
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const inlineScripts = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');

describe('inlineAssets', () => {
  it('writes theme.js and the stylesheet into the page and loads the app by a loader, each script named by its hash', () => {
    const { template, scriptHashes } = inlineAssets(BUILT, (path) => FILES[path] ?? null);

    expect(template).not.toContain('src="/theme.js"');
    expect(template).not.toContain('rel="stylesheet"');
    expect(template).not.toContain('type="module"');
    expect(template).not.toContain('<link rel="modulepreload"');
    expect(template).toContain('<style nonce="__CSP_NONCE__">body{color:red}</style>');

    const [theme, loader] = inlineScripts(template);
    expect(theme).toBe('(function () { document.documentElement.dataset.x = "1"; })();');
    expect(loader).toContain('(document, "/assets/index-AbC123.js", ["/assets/react-Xy9.js","/assets/dist-Q1.js"])');
    expect(scriptHashes).toEqual([sha256(theme ?? ''), sha256(loader ?? '')]);
    // The loader comes last, after the root it looks at.
    expect(template.indexOf('<div id="root">')).toBeLessThan(template.indexOf(loader ?? ''));
  });

  it('leaves as files what it cannot read, and a stylesheet that could close its own element', () => {
    const { template, scriptHashes } = inlineAssets(BUILT, (path) =>
      path.endsWith('.css') ? 'a::after{content:"</style><script>alert(1)</script>"}' : null,
    );
    expect(template).toContain('<script src="/theme.js"></script>');
    expect(template).toContain('<link rel="stylesheet" crossorigin href="/assets/style-Zz.css">');
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
