/**
 * The README's configuration table and .env.example are where operators learn what they can
 * set: each must name every variable the configuration reads, and nothing it does not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The variables named in the first column of the README's table under "## Configuration". */
function variablesInReadme(readme: string): string[] {
  const section = /^## Configuration\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? ''));
}

/** The variables .env.example sets or shows commented out (`NAME=` or `# NAME=` at a line's start). */
function variablesInEnvExample(example: string): string[] {
  return [...example.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '');
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('the documented configuration', () => {
  it('reads the names it compares from the files as they are written', () => {
    expect(variablesInReadme('## Configuration\n\n| `A_B`, `C` | x | `D` |\n| `E` | |\n## Next\n| `F` |')).toEqual([
      'A_B',
      'C',
      'E',
    ]);
    expect(variablesInEnvExample('# Words about PORT=1\nPORT=3000\n# HOST=0.0.0.0\n#   not=this\n')).toEqual([
      'PORT',
      'HOST',
    ]);
  });

  it('README.md lists every variable the configuration reads, and no other', () => {
    expect(sorted(variablesInReadme(read('README.md')))).toEqual(sorted(CONFIG_VARIABLES));
  });

  it('.env.example shows every variable the configuration reads, and no other', () => {
    expect(sorted(variablesInEnvExample(read('.env.example')))).toEqual(sorted(CONFIG_VARIABLES));
  });
});
