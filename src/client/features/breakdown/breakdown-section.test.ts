import { describe, expect, it } from 'vitest';
import { hiddenVotesLine } from './breakdown-section.js';

describe('the line under a breakdown', () => {
  it('says how many votes are withheld and how many did not say', () => {
    expect(hiddenVotesLine({ withheldVotes: 7, notSaidVotes: 1, alsoWithheld: null }, 10)).toBe(
      '7 votes withheld: groups of fewer than 10 are not shown, so nobody in them can be picked out. 1 vote from teachers who did not say.',
    );
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 3, alsoWithheld: null }, 10)).toBe(
      '3 votes from teachers who did not say. No group is withheld.',
    );
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 0, alsoWithheld: null }, 10)).toBe(
      'Every vote is in a group shown here.',
    );
  });

  it('names the group withheld so that the smaller ones cannot be worked out, and never says none is', () => {
    const teachers = { value: 'classroom-teacher', label: 'Classroom teacher', totalVotes: 12 };
    expect(hiddenVotesLine({ withheldVotes: 2, notSaidVotes: 0, alsoWithheld: teachers }, 10)).toBe(
      '2 votes withheld: groups of fewer than 10 are not shown, so nobody in them can be picked out. ' +
        "Classroom teacher (12 votes) is withheld too: with it shown, everyone's result less the groups shown would reveal the 2 votes above.",
    );
    expect(hiddenVotesLine({ withheldVotes: 0, notSaidVotes: 1, alsoWithheld: teachers }, 10)).toBe(
      '1 vote from teachers who did not say. ' +
        "Classroom teacher (12 votes) is withheld too: with it shown, everyone's result less the groups shown would reveal the 1 vote above.",
    );
  });
});
