/**
 * The README is read top to bottom by someone deciding whether to run the site: it stays at
 * most 300 lines, and no line of prose runs past 200 characters (table rows and code blocks
 * aside). Detail belongs in docs/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 300;
const MAX_PROSE_LINE = 200;

/** The lines as a reader counts them (a final newline ends the last line, it starts none). */
const linesOf = (text: string) => text.replace(/\n$/, '').split('\n');

/** `line N (C characters)` for each prose line longer than `max`: outside ``` blocks and tables. */
function longProseLines(text: string, max: number): string[] {
  let inCode = false;
  const long: string[] = [];
  linesOf(text).forEach((line, index) => {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && !line.startsWith('|') && line.length > max)
      long.push(`line ${index + 1} (${line.length} characters)`);
  });
  return long;
}

describe('the README shape', () => {
  it('counts lines and finds long prose outside tables and code', () => {
    const long = 'x'.repeat(11);
    const text = ['short', long, '```', long, '```', `| ${long} |`, long, ''].join('\n');
    expect(linesOf(text)).toHaveLength(7);
    expect(longProseLines(text, 10)).toEqual(['line 2 (11 characters)', 'line 7 (11 characters)']);
  });

  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

  it(`README.md is at most ${MAX_LINES} lines`, () => {
    const count = linesOf(readme).length;
    expect(
      count,
      `README.md has ${count} lines: move ${count - MAX_LINES} or more lines of detail to docs/ and link to it`,
    ).toBeLessThanOrEqual(MAX_LINES);
  });

  it(`no prose line in README.md is over ${MAX_PROSE_LINE} characters`, () => {
    expect(longProseLines(readme, MAX_PROSE_LINE), `wrap these README.md lines at about 100 characters`).toEqual([]);
  });
});
