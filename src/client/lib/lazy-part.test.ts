import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CLIENT = path.resolve(import.meta.dirname, '..');
const LAZY_PART = /lazyPart\(\s*'([^']+)',\s*\(\)\s*=>\s*import\('([^']+)'\)\s*,?\s*\)/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The module an import names: './x.js' is x.tsx or x.ts beside the file, by its path under src/client. */
function moduleOf(file: string, specifier: string): string {
  const base = path.resolve(path.dirname(file), specifier.replace(/\.js$/, ''));
  const source = ['.tsx', '.ts'].map((ext) => base + ext).find((candidate) => fs.existsSync(candidate));
  if (!source) throw new Error(`${path.relative(CLIENT, file)} imports ${specifier}, which does not exist`);
  return path.relative(CLIENT, source).split(path.sep).join('/');
}

describe('lazy parts', () => {
  const files = sources(CLIENT);

  it('each names the module it loads, as the build manifest does (the server finds its stylesheets by it)', () => {
    const parts = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(LAZY_PART)].map((match) => ({
        file,
        name: match[1],
        loads: match[2],
      })),
    );
    expect(parts.length).toBeGreaterThanOrEqual(10);
    for (const { file, name, loads } of parts) expect(name).toBe(moduleOf(file, loads ?? ''));
  });

  it('are all known to the server from its start, wherever they are declared', async () => {
    const declared = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(LAZY_PART)].map((match) => match[1] ?? ''),
    );
    const { renderer } = await import('../entry-server.js');
    expect(renderer.lazyParts).toEqual([...new Set(declared)].sort());
  });

  it('are all lazyPart: no React.lazy elsewhere, whose stylesheet a server-drawn page would miss', () => {
    const elsewhere = files.filter(
      (file) => !file.endsWith(`lib${path.sep}lazy-part.tsx`) && /\blazy\(/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(elsewhere).toEqual([]);
  });
});
