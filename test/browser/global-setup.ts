/**
 * Builds the client once per run, from the current source, for the browser tests to serve:
 * the browser's build and, beside it in ../ssr, the server's, which draws each page.
 */
import path from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    clientDir: string;
  }
}

export default async function setup(project: TestProject) {
  // In the checkout itself, not node_modules: worktrees that share one node_modules must not
  // overwrite each other's build.
  const outDir = path.resolve('test-results/browser-test/client');
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle: the
  // browser tests must run what `npm run build` ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.resolve('vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    await build({
      configFile: path.resolve('vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { ssr: 'entry-server.tsx', outDir: path.join(outDir, '..', 'ssr'), emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  project.provide('clientDir', outDir);
}
