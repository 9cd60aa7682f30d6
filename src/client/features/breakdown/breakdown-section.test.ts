import { describe, expect, it } from 'vitest';
import { hiddenVotesLine } from './breakdown-section.js';

describe('the line under a breakdown', () => {
  it('says how many votes are withheld and how many did not say', () => {
    expect(hiddenVotesLine({ withheldVotes: 7, notSaidVotes: 1 }, 10)).toBe(
      '7 votes withheld: groups of fewer than 10 are not shown, so nobody in them can be picked out. 1 vote from teachers who did not say.',
    );
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 3 }, 10)).toBe(
      '3 votes from teachers who did not say. No group is withheld.',
    );
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 0 }, 10)).toBe('Every vote is in a group shown here.');
  });
});
