import { describe, expect, it } from 'vitest';
import { hiddenVotesLine, roundingLine } from './breakdown-section.js';

// The counts come rounded to multiples of 5 (breakdowns/rounding.ts): the lines say "about".
describe('the line under a breakdown', () => {
  it('says about how many votes are withheld and how many did not say', () => {
    expect(hiddenVotesLine({ withheldVotes: 10, notSaidVotes: 5, alsoWithheld: null }, 10)).toBe(
      'About 10 votes withheld: groups of fewer than 10 are not shown, so nobody in them can be picked out. About 5 votes from teachers who did not say.',
    );
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 5, alsoWithheld: null }, 10)).toBe(
      'About 5 votes from teachers who did not say. No group is withheld.',
    );
    // A rounded 0 may stand for a few votes: never "every vote".
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 0, alsoWithheld: null }, 10)).toBe(
      'Few or no votes are outside the groups shown here.',
    );
  });

  it('names the group withheld so that the smaller ones cannot be worked out, and never says none is', () => {
    const teachers = { value: 'classroom-teacher', label: 'Classroom teacher', totalVotes: 10 };
    expect(hiddenVotesLine({ withheldVotes: 5, notSaidVotes: 0, alsoWithheld: teachers }, 10)).toBe(
      'About 5 votes withheld: groups of fewer than 10 are not shown, so nobody in them can be picked out. ' +
        "Classroom teacher (about 10 votes) is withheld too: with it shown, everyone's result less the groups shown would reveal the votes that are not shown.",
    );
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 0, alsoWithheld: teachers }, 10)).toBe(
      "Classroom teacher (about 10 votes) is withheld too: with it shown, everyone's result less the groups shown would reveal the votes that are not shown.",
    );
  });

  it('says the numbers are rounded, and why they may not add up', () => {
    expect(roundingLine(5)).toBe(
      'Numbers by group are rounded to a multiple of 5, at random, once, when voting closes, so they may not add up.',
    );
  });
});
