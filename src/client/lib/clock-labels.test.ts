import { describe, expect, it } from 'vitest';
import { formatShortLocalDate } from './clock-labels.js';

describe('formatShortLocalDate', () => {
  it('writes each month of the year as en-US Intl does, without loading it', () => {
    const intl = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
    for (let month = 1; month <= 12; month += 1) {
      const date = `2027-${String(month).padStart(2, '0')}-${String(month + 14).padStart(2, '0')}`;
      expect(formatShortLocalDate(date)).toBe(intl.format(new Date(`${date}T00:00:00Z`)));
    }
  });
});
