/**
 * Server rendering: what the server hands the app's server entry (src/client/entry-server.tsx)
 * and what it gets back. The server owns the data (its services answer these calls as the API
 * would for this visitor); the app owns which page needs which data.
 */
import type { ActivePoll, PastPoll, PollResults, Topic, WeightingData } from './api.js';
import type { SiteConfig } from './site-config.js';
import type { Tracker, TrackerSummary } from './trackers.js';

/** The data a page may need, as the API would answer it for the visitor being served. */
export interface SsrData {
  activePoll(): Promise<ActivePoll | null>;
  pastPolls(): Promise<PastPoll[]>;
  /** A past poll's final results; undefined when there is no such past poll. */
  pollResults(pollNumber: number): Promise<PollResults | undefined>;
  /** The weighted line's targets and rules (/methods). */
  weighting(): Promise<WeightingData>;
  /** Every tracker (/trackers). */
  trackers(): Promise<TrackerSummary[]>;
  /** One tracker; undefined when there is none at that slug. */
  tracker(slug: string): Promise<Tracker | undefined>;
  /** The topic list (the suggestion form's choices). */
  topics(): Promise<Topic[]>;
}

export interface SsrRequest {
  /** Path and query, as the browser will see them (`/poll-3`, `/?view=archive`). */
  url: string;
  /** The site's time the page is drawn at (ms since the epoch); the browser hydrates with it. */
  now: number;
  data: SsrData;
}

export interface SsrPage {
  /** The markup of #root. */
  html: string;
  /** JSON for the page's SSR_STATE_ELEMENT_ID element, safe inside <script>. */
  state: string;
  /** The lazily loaded parts drawn in it, by module (client/lib/lazy-part.tsx), sorted: their stylesheets go with the page. */
  parts: string[];
}

export interface SsrRenderer {
  render(request: SsrRequest): Promise<SsrPage>;
  /** Every lazy part the app has, by module: each must be in the client build's manifest. */
  lazyParts: readonly string[];
}

/** The id of the (never executed) script element holding the state the page was drawn with. */
export const SSR_STATE_ELEMENT_ID = 'ssr-state';

/** What the state element holds: the query cache, dehydrated, and the time the page was drawn. */
export interface SsrState {
  queries: unknown;
  now: number;
}

/**
 * The server sets this global to the site's configuration just before it loads the server
 * entry, which reads it once, as the browser reads the page's site-config element.
 */
export const SSR_SITE_CONFIG_GLOBAL = '__hotTakeSsrSiteConfig';

export type SsrSiteConfigHolder = Record<typeof SSR_SITE_CONFIG_GLOBAL, SiteConfig | undefined>;

/** JSON that cannot end the <script> element it sits in, whatever the strings hold. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The outcome of a vote sent by the form without scripts, named in the address the server
 * sends the browser back to (`/?outcome=already-voted`), and the sentence the page shows for it.
 */
export const VOTE_NOTICES = {
  counted: 'Your vote is recorded. Here are the results so far.',
  held: 'Your vote is recorded and will be counted after a check.',
  'already-voted': 'You have already voted on this poll.',
  'voting-closed': 'Voting has closed for today. Results are live!',
  'poll-not-open': 'This poll is not open for voting.',
  'poll-not-found': 'Poll not found',
  'no-such-option': "Please choose one of the poll's options.",
} as const;

export type VoteNotice = keyof typeof VOTE_NOTICES;

export const isVoteNotice = (value: string | null): value is VoteNotice =>
  value !== null && Object.hasOwn(VOTE_NOTICES, value);

/** Where the vote form posts without scripts (form-encoded, `option=k`). */
export const votePath = (pollId: number) => `/polls/${pollId}/vote`;
