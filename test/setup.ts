import { format } from 'node:util';
import { afterEach, beforeEach, vi } from 'vitest';

// Guard: a test run in UTC would hide time-zone mistakes (see vitest.config.ts).
if (new Date('2026-07-01T00:00:00Z').getTimezoneOffset() === 0) {
  throw new Error('Tests must run in a non-UTC time zone; run them through `npm test`.');
}

// Any console.error during a test is a bug the test did not expect: fail the test.
let errors: string[] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(format(...args));
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) throw new Error(`console.error was called:\n${errors.join('\n')}`);
});
