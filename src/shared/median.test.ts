import { describe, expect, it } from 'vitest';
import { median } from './median.js';

describe('median', () => {
  it('is the middle value, the mean of the middle two, or 0 for none, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
    const values = [5, 1, 4];
    median(values);
    expect(values).toEqual([5, 1, 4]);
  });
});
