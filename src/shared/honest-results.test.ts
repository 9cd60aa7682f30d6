import { describe, expect, it } from 'vitest';
import { HONEST_RESULTS, honestResultsUrl } from './honest-results.js';

describe('"How we keep results honest"', () => {
  it('is an anchor of the FAQ, on the site’s own address', () => {
    expect(HONEST_RESULTS.path).toBe(`/faq#${HONEST_RESULTS.id}`);
    expect(honestResultsUrl('https://hottake.example.org')).toBe('https://hottake.example.org/faq#honest-results');
  });
});
