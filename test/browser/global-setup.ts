/** Builds the client once per run, from the current source, for the browser tests to serve. */
import path from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    clientDir: string;
  }
}

export default async function setup(project: TestProject) {
  const outDir = path.resolve('node_modules/.cache/browser-test-client');
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  project.provide('clientDir', outDir);
}
