/**
 * A stand-in for the built client (dist/client) for `app.inject()` tests: the real
 * src/client/index.html template, theme.js, a hashed asset and an icon, in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLIENT_TEMPLATE = fs.readFileSync(path.resolve('src/client/index.html'), 'utf8');

export interface TestClient {
  dir: string;
  remove(): void;
}

export function createTestClient(template = CLIENT_TEMPLATE): TestClient {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-client-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), template);
  fs.writeFileSync(path.join(dir, 'assets', 'index-3f2a1b.js'), 'console.log("app")');
  fs.copyFileSync(path.resolve('src/client/public/theme.js'), path.join(dir, 'theme.js'));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
