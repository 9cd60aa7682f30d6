import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CLIENT = path.resolve(import.meta.dirname, '..');
/** Reading a query string's parameters, or the address's query itself. */
const READS_QUERY = /\b(search|searchParams|query)\.(get|getAll|has|entries|keys|values|forEach)\(|location\.search\b/;

describe("the app's query string", () => {
  it('is read only through readPageQuery (shared/page-query.ts), so the pages the server keeps show what the browser shows', () => {
    const readers = fs
      .readdirSync(CLIENT, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) => READS_QUERY.test(fs.readFileSync(path.join(CLIENT, file), 'utf8')));
    // The router hands the whole address on; nothing else reads the query by itself.
    expect(readers).toEqual([path.join('lib', 'router.tsx')]);
  });
});
