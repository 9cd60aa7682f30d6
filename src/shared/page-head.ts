/**
 * What each page says about itself in its head (title, description): written by the server
 * into the first page (og/link-previews.ts), and by the app on every move inside it, so both
 * say the same thing for the same address.
 */
import { setAsideNote, votesText } from './results.js';

export const DEFAULT_DESCRIPTION = 'One education poll a day. Teachers vote anonymously and see the results.';
const VOTE_CALL = 'Vote anonymously in seconds and see where colleagues stand.';

/** The titles of the pages that have one of their own besides a question. */
export const PAGE_TITLES = {
  archive: 'Past Hot Takes',
  suggest: 'Suggest a Poll',
  faq: 'Frequently Asked Questions',
  terms: 'Terms of Service',
  privacy: 'Privacy & Cookie Policy',
  reminders: 'Reminders',
  methods: 'How we adjust results',
  trackers: 'Trackers',
  notFound: '404 Page Not Found',
} as const;

/** Descriptions are shown in two or three lines at most; longer ones are cut at a word. */
export function clip(text: string, max = 200): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export const joined = (...parts: (string | null | undefined)[]) =>
  parts
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');

/** "3 votes set aside after review." after a total, when any were. */
function setAsideSentence(setAsideVotes: number | null): string | null {
  const note = setAsideNote(setAsideVotes ?? 0);
  return note && `${note}.`;
}

/** Today's poll: a call to vote while voting is open, the total after the close. */
export function todayDescription(
  poll: { description: string | null; setAsideVotes: number | null },
  votingOpen: boolean,
  totalVotes: number,
): string {
  return clip(
    votingOpen
      ? joined("Today's hot take.", poll.description, VOTE_CALL)
      : joined(
          poll.description,
          `Voting has closed for today: ${votesText(totalVotes)}.`,
          setAsideSentence(poll.setAsideVotes),
          'See where colleagues stand.',
        ),
  );
}

/** A past poll: its final results, led by the staff note's words when there is one. */
export function pastPollDescription(poll: {
  description: string | null;
  totalVotes: number;
  setAsideVotes: number;
  note?: { text: string } | null | undefined;
}): string {
  return clip(
    joined(
      poll.note ? `What we learned: ${poll.note.text}` : poll.description,
      `Final results: ${votesText(poll.totalVotes)}.`,
      setAsideSentence(poll.setAsideVotes),
      'Poll closed.',
    ),
  );
}
