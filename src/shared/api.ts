/**
 * The shapes of the JSON the server sends, shared so the client reads exactly what the server
 * writes: each is the z.infer of the response schema in `schemas/*-answers.ts` that its route
 * declares (so the API document, GET /openapi.json, says the same). Imported as types only: no
 * schema reaches the browser through this file. Request bodies are the schemas in `schemas.ts`.
 */
import type { z } from './zod.js';
import type { Profile } from './profile.js';
import type { ResultItem } from './results.js';
import type { WeightingMargin, WEIGHTING_RULES } from './weighting.js';
import type * as polls from './schemas/poll-answers.js';
import type * as staff from './schemas/staff-answers.js';
import type * as admin from './schemas/admin-answers.js';
import type * as review from './schemas/review-answers.js';
import type * as topics from './schemas/topic-answers.js';

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

export type Poll = z.infer<typeof polls.poll>;
/** An item of GET /api/polls: a past poll, for the archive. */
export type PastPoll = z.infer<typeof polls.pastPoll>;
/** GET /api/polls/number/:n: the final results of a past poll. */
export type PollResults = z.infer<typeof polls.pollResults>;
/** One run of a question asked more than once (past polls, and today's once voting closed). */
export type SeriesRun = z.infer<typeof polls.seriesRun>;
/** GET /api/polls/:id/breakdown: results by role, grade level, region and experience. */
export type Breakdown = z.infer<typeof polls.breakdown>;
export type BreakdownDimension = Breakdown['dimensions'][number];
export type BreakdownGroup = BreakdownDimension['groups'][number];
/** GET /api/polls/active: today's poll, as this visitor may see it. */
export type ActivePoll = z.infer<typeof polls.activePoll>;
/** GET /api/polls/:id/ballot?shown=MS */
export type Ballot = z.infer<typeof polls.ballot>;
/** GET /api/polls/:id/proof-of-work: an ALTCHA challenge (altcha widget 3, altcha-lib 2). */
export type ProofOfWorkChallenge = z.infer<typeof polls.proofOfWorkChallenge>;
/** GET and POST /api/stats: the strip under the poll. */
export type Stats = z.infer<typeof polls.stats>;
/** POST /api/polls/:id/update-vote, /api/subscribe and other calls that only confirm. */
export type Confirmation = z.infer<typeof polls.confirmation>;
/** POST /api/polls/:id/vote */
export type VoteReceipt = z.infer<typeof polls.voteReceipt>;
export type SuggestionReceipt = z.infer<typeof polls.suggestionReceipt>;
/** A topic as a poll names it: /topics/<slug>. */
export type TopicRef = z.infer<typeof polls.topicRef>;
/** A staff note as readers get it (rendered HTML, plain text, when it last changed). */
export type PollNote = z.infer<typeof polls.pollNote>;

/** GET /api/topics: the list the owner keeps, in its order. */
export type Topic = z.infer<typeof topics.topic>;
/** Text with the matched words marked: an even index is plain text, an odd one a matched word. */
export type MarkedText = z.infer<typeof topics.markedText>;
export type SearchHit = z.infer<typeof topics.searchHit>;
/** GET /api/search?q=: past polls matching the words, best first. */
export type SearchResults = z.infer<typeof topics.searchResults>;
/** GET /api/admin/polls/:id/note: the note as typed, for the editor. */
export type AdminNote = z.infer<typeof topics.adminNote>;
/** GET /api/admin/digest: when the weekly digest leaves on Fridays (site time zone). */
export type DigestSettings = z.infer<typeof topics.digestSettings>;
/** POST, PUT and DELETE /api/admin/topics… */
export type TopicChangeAnswer = z.infer<typeof topics.topicChange>;

/** GET /api/admin/session */
export type AdminSession = z.infer<typeof staff.adminSession>;
export type StaffMember = z.infer<typeof staff.staffMember>;
export type StaffSession = z.infer<typeof staff.staffSession>;
export type StaffPasskey = z.infer<typeof staff.staffPasskey>;
export type StaffInvite = z.infer<typeof staff.staffInvite>;
export type InviteDetails = z.infer<typeof staff.inviteDetails>;
/** POST /api/admin/invites: the invite and its link, shown once. */
export type NewInvite = z.infer<typeof staff.newInvite>;
export type AuditEntry = z.infer<typeof staff.auditEntry>;
export type AuditPage = z.infer<typeof staff.auditPage>;
export type AuditCheck = z.infer<typeof staff.auditCheck>;

export type AdminPoll = z.infer<typeof admin.adminPoll>;
/** POST and PUT /api/admin/polls */
export type SavedPoll = z.infer<typeof admin.savedPoll>;
export type AdminSuggestion = z.infer<typeof admin.adminSuggestion>;
/** GET /api/poll-suggestions?limit=N: one page of a list, newest first (without `limit`: AdminSuggestion[]). */
export type SuggestionsPage = z.infer<typeof admin.suggestionsPage>;
export type MailStats = z.infer<typeof admin.mailStats>;
export type VoteRecord = z.infer<typeof admin.voteRecord>;
export type VotesSummary = z.infer<typeof admin.votesSummary>;
/** POST /api/admin/update-poll-status */
export type PollStatusUpdate = z.infer<typeof admin.pollStatusUpdate>;

/** GET /api/admin/polls/:id/integrity */
export type IntegrityReport = z.infer<typeof review.integrityReport>;
export type VoteStatus = keyof IntegrityReport['votes'];
export type IntegrityMinute = IntegrityReport['minutes'][number];
export type IntegrityMark = IntegrityReport['marks'][number];
export type IntegrityBucket = z.infer<typeof review.integrityBucket>;
export type FlaggedBurst = z.infer<typeof review.flaggedBurst>;
export type IntegrityAction = z.infer<typeof review.integrityAction>;
export type IntegrityActionKind = IntegrityAction['kind'];
/** What a discount (201), a restore or a release answers: the log entry it made. */
export type IntegrityChange = z.infer<typeof review.integrityChange>;
/** PUT /api/admin/polls/:id/challenge */
export type ChallengeChange = z.infer<typeof review.challengeChange>;

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
  /** The staff note, "What we learned"; null without one. */
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
    | 'yearsBands'
    | 'effectiveSample'
    | 'shownWhen'
    | 'interval'
    | 'noMarginOfError',
    string
  >;
  rules: typeof WEIGHTING_RULES;
}
