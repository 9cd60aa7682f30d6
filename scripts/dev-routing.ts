/**
 * Who answers each request under `npm run dev`. Vite (on :5173, with hot reload) serves the
 * app's screens and its own modules and files; every other request goes to the server
 * (`npm run dev:server`, on :3000), as every request does in production. The rule names what
 * is the app's, never the server's routes, so a route added to the server works in dev at once.
 * test: src/server/dev-routing.test.ts holds it against every route the server registers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { screenOf } from '../src/client/app/screens.js';

/** Where `npm run dev:server` listens. */
export const DEV_SERVER_URL = 'http://localhost:3000';

/** Vite's own addresses: its client, modules by id, files outside the root, pre-bundled dependencies. */
const VITE_OWN = /^\/(?:@|node_modules\/|__)/;

const isFile = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true;

/**
 * True when Vite answers `method url` itself: a read of one of the app's screens (its
 * index.html, drawn in the browser), of a source module or a public file of `clientRoot`
 * (src/client), or of Vite's own. Anything else, every write included, is the server's.
 */
export function servedByVite(method: string, url: string, clientRoot: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const { pathname } = new URL(url, 'http://localhost');
  if (VITE_OWN.test(pathname) || pathname === '/index.html') return true;
  if (screenOf(pathname, new URLSearchParams()).kind !== 'not-found') return true;
  return isFile(path.join(clientRoot, pathname)) || isFile(path.join(clientRoot, 'public', pathname));
}
