/** The staff note's renderer against hostile input: nothing a note holds can run in a reader's page. */
import { describe, expect, it } from 'vitest';
import { renderNote } from './note-markdown.js';

/** Every start tag in `html`, by name. */
const tags = (html: string) => [...html.matchAll(/<([a-z0-9]+)[\s>]/gi)].map((m) => m[1]?.toLowerCase());
/** Every attribute written, as name="value". */
const attributes = (html: string) => [...html.matchAll(/\s([a-z-]+)="([^"]*)"/gi)].map((m) => [m[1], m[2]]);

describe('renderNote', () => {
  it('renders the subset: paragraphs, emphasis, lists, code and links', () => {
    const { html, text } = renderNote(
      'Most said *no*, **strongly**.\n\n- one\n- two\n\nSee [the methods](/methods) or https://example.org/x `code`',
    );
    expect(html).toBe(
      '<p>Most said <em>no</em>, <strong>strongly</strong>.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n' +
        '<p>See <a href="/methods" rel="nofollow ugc noopener noreferrer">the methods</a> or ' +
        '<a href="https://example.org/x" rel="nofollow ugc noopener noreferrer">https://example.org/x</a> <code>code</code></p>',
    );
    expect(text).toBe('Most said no, strongly. one two See the methods or https://example.org/x code');
  });

  it.each([
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg onload=alert(1)>',
    '<!-- comment --><style>body{}</style>',
  ])('shows raw HTML as text, never as markup: %s', (hostile) => {
    const { html } = renderNote(hostile);
    // A bare address in the text may become a link to it; nothing else becomes an element.
    expect(tags(html).filter((tag) => tag !== 'a')).toEqual(['p']);
    expect(html).not.toMatch(/<(script|img|iframe|svg|style)\b/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('&lt;');
  });

  it.each([
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](  javascript:alert(1))',
    '[x](jav&#x61;script:alert(1))',
    '[x](java\nscript:alert(1))',
    '[x](vbscript:msgbox(1))',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '[x](file:///etc/passwd)',
    '[x](//evil.example/path)',
    '<javascript:alert(1)>',
    '[x][r]\n\n[r]: javascript:alert(1)',
  ])('makes no link out of a scheme that is not allowed: %s', (hostile) => {
    const { html } = renderNote(hostile);
    expect(html).not.toContain('<a ');
    expect(html.toLowerCase()).not.toMatch(/href="\s*(javascript|vbscript|data|file):/);
  });

  it('keeps every attribute inside its quotes (no attribute injection)', () => {
    for (const hostile of [
      '[x](https://a.example/" onmouseover="alert(1))',
      '[x](https://a.example/?q="><script>alert(1)</script>)',
      "[x](https://a.example/' onclick='alert(1))",
      '[x](<https://a.example/" autofocus onfocus="alert(1)>)',
      '[x](https://a.example "title\\" onclick=\\"alert(1)")',
    ]) {
      const { html } = renderNote(hostile);
      for (const [name] of attributes(html)) expect(['href', 'rel', 'title']).toContain(name);
      expect(html).not.toMatch(/<script/i);
      // Outside the quoted values, no tag holds an event handler.
      expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\son[a-z]+=/i);
    }
  });

  it('turns images and headings into text, not elements', () => {
    const { html } = renderNote('# Big\n\n![x](https://a.example/t.png)');
    expect(tags(html).filter((tag) => tag !== 'p' && tag !== 'a')).toEqual([]);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<h1');
  });

  it('renders a 100 KB body quickly and safely, and replaces a NUL', () => {
    const big = `${'*a* <b>x</b> [l](javascript:x) '.repeat(3_500)}\u0000end`;
    expect(big.length).toBeGreaterThan(100_000);
    const { html, text } = renderNote(big);
    expect(html).not.toContain('\u0000');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<a ');
    expect(text).toContain('\uFFFDend');
  });

  it('survives deeply nested emphasis and brackets', () => {
    const nested = `${'*['.repeat(5_000)}x${'](/)*'.repeat(5_000)}`;
    const { html } = renderNote(nested);
    expect(html.startsWith('<p>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
  });
});
