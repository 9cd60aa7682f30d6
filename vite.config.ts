import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
 * Two builds: the browser's (`vite build`, into dist/client) and the server's
 * (`vite build --ssr entry-server.tsx`, into dist/ssr): the same app, drawn by the server into
 * each page. The server's is one self-contained file (React and every page inside), so the
 * server loads it with nothing else from node_modules.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  plugins: isSsrBuild ? [react()] : [react(), precompress()],
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
        // One stylesheet, linked from the page's head: every server-drawn page is styled at first
        // paint, the lazily loaded pages too, and with scripts off.
        cssCodeSplit: false,
      },
  ssr: { noExternal: true, target: 'node' },
  server: {
    // `npm run dev` (Vite) with `npm run dev:server` (the API on port 3000).
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000', '/og': 'http://localhost:3000' },
  },
}));
