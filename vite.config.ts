import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { DEV_SERVER_URL, servedByVite } from './scripts/dev-routing.js';

/** The browser app's sources: Vite's root. */
const CLIENT_ROOT = 'src/client';

/**
 * Writes a .br and a .gz beside every text asset, once, at build time; the server sends them
 * to browsers that accept them (@fastify/static preCompressed), so nothing is compressed per
 * request and the phone on a school network downloads the small version.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? '';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const content = fs.readFileSync(file);
        if (content.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * What every first view runs, from node_modules: React and the query cache, in one chunk of
 * its own (compressed as one, and kept in the browser's cache while the app's code changes).
 * The query library's mutations and infinite lists are left to the parts that use them.
 */
const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/][^\\/]+)[\\/]/;
const LATER = /[\\/](mutationObserver|useMutation|infiniteQueryObserver|useInfiniteQuery|infiniteQueryOptions)\.js$/;
/**
 * With it, the few shared modules both the first view and the lazily loaded schemas read: on
 * their own, the build would give each a chunk (a request) of its own.
 */
const SHARED_EARLY = /src[\\/]shared[\\/](limits|poll-links)\.ts$/;
const inFramework = (id: string) => (FRAMEWORK.test(id) && !LATER.test(id)) || SHARED_EARLY.test(id);

/**
 * A lazy part loaded from another lazy part (the charts, from the results) lists, among what to
 * load first, the entry's stylesheet, as the parts import the entry's code. That sheet is on
 * every page already: linked, or written into a page the server drew, where no <link> tells
 * the loader so, and it would fetch it again. Each such mention becomes the entry's script,
 * which is loaded already too (a list's places are kept: the code points into it by number).
 */
function entryStylesLoaded(): Plugin {
  return {
    name: 'entry-styles-loaded',
    apply: 'build',
    // Before precompress writes each file's compressed copies.
    writeBundle: {
      order: 'pre',
      sequential: true,
      handler(options, bundle) {
        const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
        for (const entry of chunks.filter((chunk) => chunk.isEntry)) {
          for (const css of entry.viteMetadata?.importedCss ?? []) {
            for (const chunk of chunks) {
              const file = path.join(options.dir ?? '', chunk.fileName);
              const code = fs.readFileSync(file, 'utf8');
              if (chunk !== entry && code.includes(`"${css}"`)) {
                fs.writeFileSync(file, code.replaceAll(`"${css}"`, JSON.stringify(entry.fileName)));
              }
            }
          }
        }
      },
    },
  };
}

/** A browser version as Lightning CSS takes it: the major number in the third byte. */
const version = (major: number) => major << 16;

/**
 * The stylesheets are written for today's browsers and turned, in dev and build alike, into CSS
 * that the schools' older ones read too: Safari 15 on iPads is the oldest. Among other things
 * each light-dark() colour of styles/base.css becomes custom-property fallbacks, switched by
 * color-scheme, since Safari has light-dark() only from 17.5.
 */
const cssTargets = {
  chrome: version(111),
  edge: version(111),
  firefox: version(114),
  safari: version(15),
  ios_saf: version(15),
};

/**
 * Two builds: the browser's (`vite build`, into dist/client) and the server's
 * (`vite build --ssr entry-server.tsx`, into dist/ssr): the same app, drawn by the server into
 * each page. The server's is one self-contained file (React and every page inside), so the
 * server loads it with nothing else from node_modules.
 */
export default defineConfig(({ isSsrBuild, mode }) => ({
  root: CLIENT_ROOT,
  plugins: isSsrBuild ? [react()] : [react(), entryStylesLoaded(), precompress()],
  build: isSsrBuild
    ? {
        outDir: '../../dist/ssr',
        emptyOutDir: true,
        sourcemap: true,
        rollupOptions: { output: { codeSplitting: false, entryFileNames: 'entry-server.js' } },
      }
    : {
        outDir: '../../dist/client',
        emptyOutDir: true,
        sourcemap: true,
        // Each lazy part's CSS comes with its code. The manifest tells the server which sheets
        // a lazy part needs, so that a page it draws carries those of the parts it drew
        // (src/server/pages/page-styles.ts) and paints styled with scripts off.
        manifest: true,
        // No polyfill for <link rel=modulepreload> in every first view's code: the browsers
        // without it (Safari before 17, Firefox before 115) still load every part, only
        // fetching a lazy part's own imports once the part itself has arrived.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [{ name: (id) => (inFramework(id) ? 'framework' : null) }],
            },
          },
        },
      },
  css: { transformer: 'lightningcss', lightningcss: { targets: cssTargets } },
  ssr: { noExternal: true, target: 'node' },
  // The server build bundles React: a production build keeps only React's production code, as
  // the browser's does, whatever NODE_ENV the server later runs with (npm start sets none).
  ...(isSsrBuild && mode === 'production' ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  server: {
    // `npm run dev` (Vite) with `npm run dev:server`: Vite answers the app's screens and modules,
    // and hands every other request to the server (scripts/dev-routing.ts).
    proxy: {
      '^/': {
        target: DEV_SERVER_URL,
        bypass: (request) =>
          servedByVite(request.method ?? 'GET', request.url ?? '/', path.resolve(CLIENT_ROOT))
            ? request.url
            : undefined,
      },
    },
  },
}));
