/**
 * The shapes of the JSON the server sends, shared so the client reads exactly what the server
 * writes. Request bodies are validated with the zod schemas in `schemas.ts`.
 */
import type { Profile, ProfileDimension } from './profile.js';
import type { ResultItem } from './results.js';
import type { Weighted, WeightingMargin, WEIGHTING_RULES } from './weighting.js';
import type { LocalDate } from './time.js';

import type { StaffRole } from './staff-permissions.js';

export type { Profile, ResultItem };

/**
 * What went wrong, for code to act on: stable, unlike the message, which is worded for people
 * and may change. The status code says the same coarsely; these say which rule refused.
 */
export const ERROR_CODES = [
  /** The input broke a rule of the schema or the form (400); `issues` says which field. */
  'validation',
  /** The request itself is malformed: bad JSON, wrong content type, a body too large, a bad address. */
  'bad-request',
  'unauthorized',
  /** Refused whoever asks: a request from another site, say (403). */
  'forbidden',
  /** Voter e-mails need a sign-in within the last 10 minutes: sign in again, then retry (403). */
  'sign-in-again',
  'not-found',
  /** A staff change that clashes with the schedule or with votes (409). */
  'conflict',
  /** This browser has a vote on the poll already (409). */
  'already-voted',
  /** The e-mail address has a vote on the poll already (409). */
  'email-already-voted',
  /** The vote has an e-mail address already, which cannot change (409). */
  'email-locked',
  /** Voting on today's poll has closed for the day (409). */
  'voting-closed',
  /** The poll is not today's, so it takes no votes (409). */
  'poll-not-open',
  /** Too many requests of this kind from this network or browser (429). */
  'rate-limited',
  /** The site cannot answer this now; try again soon (503). */
  'unavailable',
  /** A format or feature this server does not offer, such as oEmbed's XML (501). */
  'not-implemented',
  /** A fault on the server (500). */
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every error response: a sentence a person can read, and a code that says which rule refused. */
export interface ApiError {
  message: string;
  code: ErrorCode;
  /** For invalid input: which field was wrong and why. */
  issues?: { path: string; message: string }[];
}

export interface Poll {
  id: number;
  /** Public number of the poll, as in /poll-N; assigned at creation, never reused. */
  pollNumber: number;
  question: string;
  description: string | null;
  options: string[];
  /** The day the poll is (or was) live, in the site time zone. */
  liveDate: LocalDate;
  createdAt: string;
  isActive: boolean;
}

/** An item of GET /api/polls: a past poll, for the archive. */
export interface PastPoll extends Poll {
  totalVotes: number;
  /**
   * Votes received but in no figure: held (cast without the proof of work their network was
   * asked for) or discounted by staff after review. Said in public wherever results appear.
   */
  setAsideVotes: number;
  /** The topics staff gave it (issue 39), in the list's order; on past polls and their results. */
  topics?: TopicRef[];
}

/** A topic as a poll names it: /topics/<slug>. */
export interface TopicRef {
  slug: string;
  name: string;
}

/** GET /api/topics: the list the owner keeps, in its order; staff also get ids and poll counts. */
export interface Topic extends TopicRef {
  id: number;
  /** Past polls with this topic. */
  pastPolls: number;
}

/** GET /api/search?q=: past polls matching the words, best first (issue 39, item 2). */
export interface SearchResults {
  /** The words searched for, as the search read them; empty when the query had none. */
  terms: string[];
  topic: TopicRef | null;
  year: number | null;
  page: number;
  /** Matching past polls in all pages. */
  total: number;
  results: SearchHit[];
}

/** Text with the matched words marked: an even index is plain text, an odd one a matched word. */
export type MarkedText = string[];

export interface SearchHit extends Pick<PastPoll, 'id' | 'pollNumber' | 'liveDate' | 'totalVotes' | 'topics'> {
  question: MarkedText;
  description: MarkedText;
  /** The staff note's text, marked (empty until the poll has one). */
  note: MarkedText;
}

/** GET /api/polls/number/:n: the final results of a past poll. */
export interface PollResults extends Pick<
  PastPoll,
  'id' | 'pollNumber' | 'question' | 'description' | 'options' | 'liveDate' | 'totalVotes' | 'setAsideVotes' | 'topics'
> {
  results: ResultItem[];
  /** The other runs of the same question (polls linked by "asked before"), oldest first. */
  series: SeriesRun[];
  /**
   * The result adjusted to the mix of US K-12 teachers (src/shared/weighting.ts, /methods), or
   * which rule withheld it. Only on closed polls: a past poll always has it.
   */
  weighted: Weighted;
  /** The tracker of its series (issue 38), once the question has been asked twice: absent otherwise. */
  tracker?: { slug: string; name: string };
  /** The staff note, "What we learned", once one is written (past polls only). */
  note?: PollNote | null;
}

/**
 * A staff note as readers get it: rendered on the server from a safe Markdown subset (no raw
 * HTML, links only to http(s), mailto and the site), and as plain text for link previews.
 */
export interface PollNote {
  html: string;
  text: string;
  /** When it was last changed (ISO 8601), shown with it. */
  updatedAt: string;
}

/** GET /api/admin/polls/:id/note: the note as typed, for the editor. */
export interface AdminNote {
  body: string;
  updatedAt: string | null;
  /** Whether the poll has closed, so a note may be written. */
  writable: boolean;
}

/** GET /api/admin/digest: when the weekly digest leaves on Fridays (site time zone). */
export interface DigestSettings {
  sendAt: string;
  timeZone: string;
}

/**
 * One run of a question asked more than once. Runs are past polls, and today's poll once
 * voting has closed for the day (never before: no peeking).
 */
export type SeriesRun = Pick<PollResults, 'pollNumber' | 'liveDate' | 'totalVotes' | 'results'>;

/**
 * One group of a breakdown ("School leader"): its own votes and results, the percentages within
 * the group adding up to 100.
 */
export interface BreakdownGroup extends Pick<PollResults, 'totalVotes' | 'results'> {
  /** The group's id in its dimension's list (src/shared/profile.ts). */
  value: string;
  label: string;
  /** The group's weighted line under the group gates (or why withheld); breakdowns are closed polls only. */
  weighted?: Weighted;
}

export interface BreakdownDimension {
  dimension: ProfileDimension;
  label: string;
  /** The groups shown, each of at least `minGroupSize` votes, in the order of the dimension's list. */
  groups: BreakdownGroup[];
  /** Votes in groups too small to show (or no longer listed). */
  withheldVotes: number;
  /** Votes whose voter gave no answer for this dimension. */
  notSaidVotes: number;
  /**
   * A group large enough to show, withheld all the same (secondary suppression): the overall
   * result less the groups shown would otherwise give away the votes not shown, fewer than
   * `minGroupSize` of them. Only its size is told; null when no group needs withholding.
   */
  alsoWithheld: Pick<BreakdownGroup, 'value' | 'label' | 'totalVotes'> | null;
}

/**
 * GET /api/polls/:id/breakdown: a poll's results by role, grade level, region and experience,
 * as voters described themselves when they voted. Past polls, and today's once voting closes.
 */
export interface Breakdown extends Pick<PollResults, 'pollNumber' | 'totalVotes' | 'setAsideVotes'> {
  pollId: Poll['id'];
  minGroupSize: number;
  /**
   * Every count of `dimensions` is a multiple of this: drawn at random once, when the breakdown
   * was published after the close, and kept (/methods, "Results by group").
   */
  roundedTo: number;
  /**
   * Set when staff counted or set aside votes after the breakdown was published: it says so,
   * while the groups (and `totalVotes`, `setAsideVotes`) stay as published at the close.
   */
  correction: string | null;
  dimensions: BreakdownDimension[];
}

/**
 * An item of GET /data/polls.json's `polls` (the CSV and the Atom feed are written from the
 * same items): a past poll as open data, with its breakdowns.
 */
export interface OpenPoll extends Pick<
  PollResults,
  'pollNumber' | 'question' | 'description' | 'options' | 'totalVotes' | 'setAsideVotes' | 'results' | 'topics'
> {
  /** The day it was asked, in the site's time zone. */
  date: PollResults['liveDate'];
  /** Its page on the site. */
  url: string;
  /** When voting on it closed (ISO 8601, UTC). */
  closedAt: string;
  /** By role, grade level, region and experience; groups under the minimum size are withheld. */
  breakdowns: Breakdown['dimensions'];
  weighted: PollResults['weighted'];
  /** The staff note, "What we learned": rendered HTML, plain text and when it last changed; null without one. */
  note?: PollNote | null;
}

/**
 * GET /data/weighting.json (src/server/weighting/targets.ts): the targets the weighted line is
 * raked to, with their sources, the scope, the mapping of our answers and every rule. These are
 * the parts /methods reads; the file holds more.
 */
export interface WeightingData {
  population: string;
  compiled: string;
  about: string;
  scope: string;
  notReached?: string;
  margins: Record<
    WeightingMargin,
    {
      label: string;
      mapping: string;
      source: { survey: string; table: string; schoolYear: string; url: string; covers: string };
      categories: Record<string, { label: string; percent: number }>;
    }
  >;
  method: Record<
    | 'raking'
    | 'convergence'
    | 'cap'
    | 'smallCategories'
    | 'effectiveSample'
    | 'shownWhen'
    | 'interval'
    | 'noMarginOfError',
    string
  >;
  rules: typeof WEIGHTING_RULES;
}

/** GET /api/polls/active: today's poll, as this visitor may see it. */
export interface ActivePoll extends Omit<PastPoll, 'setAsideVotes'> {
  /**
   * PastPoll['setAsideVotes'], published once voting has closed; null while it is open (a count
   * growing with each held vote would show a stuffer where the line is).
   */
  setAsideVotes: number | null;
  userVoted: boolean;
  /** Index of the option this visitor chose; null before voting, and while their vote is held. */
  userVoteOption: number | null;
  /**
   * This visitor's vote is recorded but held for a check (src/server/integrity/): it is in no
   * figure yet, so no results are shown to them while voting is open, and none marked as theirs.
   */
  voteHeld: boolean;
  /**
   * Per-option results. Null until the visitor has voted or voting has closed for the day:
   * nobody peeks at the results before choosing.
   */
  results: PollResults['results'] | null;
  /** Whether votes are accepted now (false from the close time until midnight). */
  votingOpen: boolean;
  /** Today's close time, as an ISO instant. */
  closesAt: string;
  /**
   * The earlier runs of this question, oldest first, when it was asked before; shown with the
   * results, so null until they are (no peeking), and [] when it was not asked before.
   */
  series: SeriesRun[] | null;
  /**
   * Once voting has closed, the weighted line (PollResults['weighted']). Absent while voting is
   * open: never live, not even the number of votes in its scope.
   */
  weighted?: PollResults['weighted'];
}

/**
 * GET /api/polls/:id/ballot?shown=MS: the ballot a page asks for on the first intent to vote
 * (not with today's poll, which every visit reads and most never vote on): a token the server
 * signed with the poll and when the question was first shown (now, less `shown`, capped), sent
 * back with the vote, and whether votes from this visitor's network must carry a proof of work
 * now (src/server/integrity/).
 */
export interface Ballot {
  token: string;
  /** When true, the vote carries an ALTCHA solution (`proof`) to GET /api/polls/:id/proof-of-work's challenge. */
  proofOfWork: boolean;
}

/**
 * GET /api/polls/:id/proof-of-work: an ALTCHA challenge (the protocol of the altcha widget 3 and
 * altcha-lib 2), bound to the poll and the caller's network for five minutes. Its solution goes
 * back as the vote's `proof`: base64 of the JSON `{ challenge: { parameters, signature }, solution }`.
 */
export interface ProofOfWorkChallenge {
  parameters: {
    algorithm: string;
    nonce: string;
    salt: string;
    cost: number;
    keyLength: number;
    keyPrefix: string;
    keySignature?: string;
    memoryCost?: number;
    parallelism?: number;
    expiresAt?: number;
    data?: Record<string, string | number | boolean | null>;
  };
  signature?: string;
}

/** GET and POST /api/stats: the strip under the poll. */
export interface Stats {
  /** Polls that have gone live: past polls plus today's. */
  totalPolls: number;
  /** Votes cast by this visitor ("Your Votes"). */
  totalVotes: number;
  /** Consecutive days on which this visitor voted, ending today (or yesterday). */
  streak: number;
}

/** POST /api/polls/:id/update-vote, /api/subscribe and /api/poll-suggestions. */
export interface Confirmation {
  message: string;
}

/** POST /api/polls/:id/vote */
export interface VoteReceipt extends Confirmation, Pick<VoteRecord, 'optionIndex'> {
  pollId: Poll['id'];
}

export interface SuggestionReceipt extends Confirmation {
  id: number;
}

/** GET /api/admin/session */
export interface AdminSession {
  authenticated: boolean;
  /** The signed-in person; absent when nobody is signed in. */
  staff?: StaffMember;
  /** True while the site has no owner yet: the old admin password opens "Create the owner account". */
  needsOwner?: boolean;
}

/** A person on the staff (GET /api/admin/staff; the signed-in one in AdminSession). */
export interface StaffMember {
  id: number;
  email: string;
  displayName: string;
  role: StaffRole;
  disabled: boolean;
  hasPassword: boolean;
  passkeys: number;
  createdAt: string;
}

/** A staff session (GET /api/admin/sessions). */
export interface StaffSession {
  id: number;
  staffId: number;
  staffName: string;
  browser: string;
  createdAt: string;
  lastSeenAt: string;
  /** The session this request came with. */
  current: boolean;
}

export interface StaffPasskey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A pending invite (GET /api/admin/invites). */
export interface StaffInvite {
  id: number;
  email: string;
  role: StaffRole;
  createdAt: string;
  expiresAt: string;
}

/** What an invite link offers before it is accepted (GET /api/admin/invites/lookup). */
export interface InviteDetails {
  email: string;
  role: StaffRole;
}

/** A row of the audit log (GET /api/admin/audit). Never passwords, tokens, passkeys or voter e-mails. */
export interface AuditEntry {
  id: number;
  at: string;
  actor: { id: number | null; name: string; role: string };
  action: string;
  target: string;
  summary: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next page; null at the end. */
  next: number | null;
}

/** The hash chain's check (GET /api/admin/audit/verify; npm run db:verify-audit). */
export interface AuditCheck {
  ok: boolean;
  rows: number;
  brokenAt: number | null;
  problem: string | null;
  /** Whether the chain is keyed with AUDIT_CHAIN_KEY; unkeyed, anyone with the database can rewrite it. */
  keyed: boolean;
  /** Rows whose hashes no key protects: all of them when unkeyed, those from before the key otherwise. */
  unkeyedRows: number;
  /** The last row: what the daily log line publishes. Null for an empty or broken chain. */
  head: { id: number; hash: string } | null;
}

/** GET /api/admin/polls: every poll, scheduled ones included. */
export interface AdminPoll extends PastPoll {
  /** missed: scheduled for a day that passed without it going live; it waits for staff. */
  status: 'scheduled' | 'missed' | 'active' | 'past';
  /** The number of the earlier poll this one asks again, if it does. */
  askedBefore: number | null;
}

/** POST and PUT /api/admin/polls */
export interface SavedPoll extends Confirmation {
  poll: AdminPoll;
}

/** A suggestion as staff see it (GET /api/poll-suggestions, staff only: it holds e-mails). */
export interface AdminSuggestion {
  id: number;
  question: string;
  options: string[];
  status: 'pending' | 'approved' | 'rejected';
  suggestedBy: string | null;
  email: string | null;
  /** The topic the visitor picked, if any (issue 39, item 5). */
  topic: TopicRef | null;
  createdAt: string;
  reviewedAt: string | null;
}

/**
 * GET /api/poll-suggestions?limit=N[&status=pending|reviewed][&after=next]: one page of a list,
 * newest first: pending suggestions by when they came in, reviewed ones by when they were
 * reviewed, every one (no status) by when it came in. `limit` is 1 to SUGGESTIONS_PAGE_MAX.
 * Without `limit` the answer is every suggestion as an array (AdminSuggestion[]), newest first,
 * as before pages: kept for API clients, and streamed.
 */
export interface SuggestionsPage {
  suggestions: AdminSuggestion[];
  /** How many suggestions the list holds in all. */
  total: number;
  /** `after` for the next page; null when this page is the last. */
  next: string | null;
}

/** GET /api/admin/mail-stats: the subscriber list and the outbox, for Utilities. */
export interface MailStats {
  /** smtp: a mail server; files: .eml files (no SMTP_URL). */
  transport: 'smtp' | 'files';
  /** confirmed: gets the daily e-mail; unconfirmed: has not followed the confirmation link yet. */
  subscribers: { confirmed: number; unconfirmed: number; unsubscribed: number };
  outbox: { queued: number; sending: number; sent: number; failed: number; cancelled: number };
}

/**
 * GET /api/admin/polls/:id/votes: every vote of a poll, oldest first (with `limit`, a page of
 * them after vote `after`). An anonymous vote has no e-mail.
 */
export interface VoteRecord {
  id: number;
  voterEmail: string | null;
  optionIndex: number;
  createdAt: string;
}

/** GET /api/admin/polls/:id/votes/summary: votes and e-mails per option, for the voter section. */
export interface VotesSummary extends Pick<PastPoll, 'totalVotes'> {
  withEmail: number;
  options: (Omit<ResultItem, 'percentage'> & { withEmail: number })[];
}

/**
 * Staff review of a poll's votes (GET /api/admin/polls/:id/integrity). A network is a bucket: a
 * keyed hash of an IPv4 /24 or IPv6 /48 under the day's key, never an address. Shares are
 * fractions from 0 to 1; times are ISO instants.
 */
export interface IntegrityReport {
  pollId: Poll['id'];
  pollNumber: Poll['pollNumber'];
  question: Poll['question'];
  options: Poll['options'];
  status: AdminPoll['status'];
  /** Votes received, by status: only counted ones are in any figure. */
  votes: Record<VoteStatus, number>;
  /** The results everyone sees now: counted votes only. */
  results: ResultItem[];
  /** Staff asked every vote on this poll for a proof of work. */
  challengeEveryone: boolean;
  /** Votes per minute, only the minutes that have any, oldest first. */
  minutes: IntegrityMinute[];
  /** When networks were watched or challenged, and when staff challenged everyone. */
  marks: IntegrityMark[];
  /** The networks with the most votes (at most INTEGRITY_TOP_BUCKETS), most first. */
  buckets: IntegrityBucket[];
  /** The networks and votes beyond those listed. */
  otherBuckets: { buckets: number; votes: number };
  /** Votes with no network: cast before review existed, or older than 30 days (their signals emptied). */
  votesWithoutBucket: number;
  /** Runs of votes the detector flagged, each with the results as they would be without it. */
  bursts: FlaggedBurst[];
  /** Every staff action on the poll, newest first. */
  log: IntegrityAction[];
}

export type VoteStatus = 'counted' | 'held' | 'discounted';

/** One minute's votes, per option, by status. */
export interface IntegrityMinute {
  /** The minute's first instant. */
  at: string;
  counted: number[];
  held: number[];
  discounted: number[];
}

export interface IntegrityMark {
  state: 'watch' | 'challenge';
  /** The network's label; null when staff challenged everyone. */
  label: string | null;
  from: string;
  to: string;
}

export interface IntegrityBucket {
  /** The code to name this network by in a discount or a release. */
  bucket: string;
  /** A short name for people (NET-3F9A2C), from the code. */
  label: string;
  votes: number;
  firstVoteAt: string;
  lastVoteAt: string;
  /** Its busiest minute. */
  peakPerMinute: number;
  /** The option this network chose most, its share of the network's votes, and that option's share of everyone else's counted votes. */
  topOption: { index: number; share: number; shareElsewhere: number } | null;
  /** The median time from a page to its vote, of votes that carried a ballot; null when none did. */
  medianPageMs: number | null;
  /** Votes without a valid ballot (no page, or not one this site served). */
  withoutBallotShare: number;
  /** Votes whose voter cookie was issued with the vote. */
  freshCookieShare: number;
  held: number;
  discounted: number;
  /** What the detector says of it now; null when it flagged nothing. */
  state: 'watch' | 'challenge' | null;
}

/** A run of one network's votes the detector flagged, from its first vote to its last. */
export interface FlaggedBurst {
  bucket: string;
  label: string;
  state: 'watch' | 'challenge';
  /** What the detector saw: volume, skew, fast, no-ballot, regular. */
  reasons: string[];
  from: string;
  to: string;
  votes: Record<VoteStatus, number>;
  /** The results without this burst's counted votes. */
  preview: { results: ResultItem[]; totalVotes: number };
}

export type IntegrityActionKind = 'discount' | 'restore' | 'release' | 'challenge-on' | 'challenge-off';

/** One entry of a poll's integrity log. */
export interface IntegrityAction {
  id: number;
  kind: IntegrityActionKind;
  bucket: string | null;
  label: string | null;
  from: string | null;
  to: string | null;
  reason: string;
  /** How many votes it set aside, gave back or released. */
  votes: number;
  /** Who did it ('staff' while there is one shared staff password). */
  actor: string;
  /** For a restore: the discount it undid. */
  undoesId: number | null;
  /** For a discount: the restore that undid it, if one has. */
  undoneById: number | null;
  createdAt: string;
}

/** What a discount (201), a restore or a release answers: the log entry it made. */
export interface IntegrityChange extends Confirmation {
  action: IntegrityAction;
}

/** PUT /api/admin/polls/:id/challenge */
export interface ChallengeChange extends Confirmation {
  challengeEveryone: boolean;
  /** The log entry it made; null when the switch was already so. */
  action: IntegrityAction | null;
}
