/** What the voting card says while a vote is on its way. */

/** Beside the pressed option while the vote is sent. */
export const VOTE_SENDING = 'Voting…';

/**
 * Beside the pressed option while the browser does the proof of work that votes from a busy
 * network carry (a second or two): calm, and nothing about why.
 */
export const VOTE_CHECKING = 'Checking…';

/** Told to screen readers when that check starts. */
export const VOTE_CHECKING_ANNOUNCEMENT = 'Checking your vote. This takes a few seconds.';
