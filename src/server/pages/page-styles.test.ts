import { describe, expect, it } from 'vitest';
import { createPartStyles } from './page-styles.js';

/** A build's manifest as Vite writes it: chunks by source module, shared chunks by file name. */
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-2.js'], css: ['assets/index-1.css'] },
  '_react-2.js': { file: 'assets/react-2.js' },
  '_shared-3.js': { file: 'assets/shared-3.js', imports: ['index.html', '_react-2.js'], css: ['assets/shared-3.css'] },
  'features/faq.tsx': {
    file: 'assets/faq-4.js',
    isDynamicEntry: true,
    imports: ['index.html', '_shared-3.js'],
    css: ['assets/faq-4.css'],
  },
  'features/terms.tsx': { file: 'assets/terms-5.js', isDynamicEntry: true, imports: ['_shared-3.js'] },
  'features/chart.tsx': { file: 'assets/chart-6.js', isDynamicEntry: true, imports: ['index.html'] },
};

const FILES: Record<string, string> = {
  '/assets/index-1.css': '.everywhere{}',
  '/assets/shared-3.css': '.shared{}\n',
  '/assets/faq-4.css': '.faq{}',
};

const LAZY_PARTS = ['features/chart.tsx', 'features/faq.tsx', 'features/terms.tsx'];

const styles = (files: Record<string, string> = FILES, manifest: object | null = MANIFEST, lazyParts = LAZY_PARTS) =>
  createPartStyles({
    manifest: manifest === null ? null : JSON.stringify(manifest),
    readAsset: (path) => files[path] ?? null,
    lazyParts,
  });

describe('the stylesheets of the lazy parts a page drew', () => {
  it("gives a part's sheets, those of the chunks it imports first, and never the entry's", () => {
    expect(styles()(['features/faq.tsx'])).toEqual({
      files: ['assets/shared-3.css', 'assets/faq-4.css'],
      css: '.shared{}\n.faq{}',
    });
    expect(styles()(['features/terms.tsx'])).toEqual({ files: ['assets/shared-3.css'], css: '.shared{}' });
  });

  it('writes a sheet two parts share once', () => {
    expect(styles()(['features/faq.tsx', 'features/terms.tsx']).css).toBe('.shared{}\n.faq{}');
  });

  it('gives nothing for a part without CSS, or for a page that drew no part', () => {
    expect(styles()(['features/chart.tsx'])).toEqual({ files: [], css: '' });
    expect(styles()([])).toEqual({ files: [], css: '' });
  });

  it('refuses at start a build that lacks a part, its manifest or a sheet, or holds a sheet that would end the <style>', () => {
    expect(() => styles(FILES, MANIFEST, [...LAZY_PARTS, 'features/admin.tsx'])).toThrow(
      'The client build has no lazy part features/admin.tsx, which the server build draws. Run npm run build.',
    );
    expect(() => styles(FILES, null)).toThrow('The client build has no /.vite/manifest.json. Run npm run build.');
    const withoutFaq = Object.fromEntries(Object.entries(FILES).filter(([file]) => file !== '/assets/faq-4.css'));
    expect(() => styles(withoutFaq)).toThrow('The client build has no assets/faq-4.css. Run npm run build.');
    expect(() => styles({ ...FILES, '/assets/faq-4.css': 'a::after{content:"</STYLE>"}' })).toThrow(
      'assets/faq-4.css holds "</style"',
    );
  });

  it('refuses a part the build does not have', () => {
    expect(() => styles()(['features/unknown.tsx'])).toThrow('features/unknown.tsx is not a lazy part of this build');
  });
});
