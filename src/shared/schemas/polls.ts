/**
 * What visitors send (today's poll, votes, stats, subscriptions, suggestions, their profile)
 * and what the public API answers. The answers' types are in shared/api.ts (z.infer).
 */
import { z } from '../zod.js';
import { BALLOT_TOKEN_MAX_LENGTH, NAME_MAX_LENGTH, OPTIONS_MAX, PROOF_MAX_LENGTH } from '../limits.js';
import { EXPERIENCE_ANSWERS, GRADE_BANDS, REGIONS, ROLES, type Profile } from '../profile.js';
import { suggestionTopic } from '../topics.js';
import { answerOptions, body, emailAddress, optionalEmail, optionalText, positiveId, question } from './fields.js';

export const pollIdParams = z.object({ id: positiveId('The poll id') });

export const pollNumberParams = z.object({ number: positiveId('The poll number') });

export const voteRequest = body({
  optionIndex: z
    .number({ error: 'optionIndex must be the number of one of the options.' })
    .int('optionIndex must be a whole number.')
    .min(0, 'optionIndex must be the number of one of the options.')
    .max(OPTIONS_MAX - 1, 'optionIndex must be the number of one of the options.'),
  voterEmail: optionalEmail,
  /** The ballot token of the page the vote came from (ActivePoll.ballot); optional: old clients and scripts send none. */
  ballot: z.string().max(BALLOT_TOKEN_MAX_LENGTH, 'The ballot is not one this site issued.').optional(),
  /** An ALTCHA solution, when the ballot asked for a proof of work. */
  proof: z.string().max(PROOF_MAX_LENGTH, 'The proof of work is not one this site asked for.').optional(),
});

export const updateVoteRequest = body({ email: emailAddress });

/**
 * The proof of work a held vote asked for, sent once the browser solved it (issue 37 item 2): a
 * teacher's phone takes longer at a network's level than a voter waits, so the vote goes first.
 */
export const voteProofRequest = body({
  proof: z
    .string()
    .min(1, 'The proof of work is not one this site asked for.')
    .max(PROOF_MAX_LENGTH, 'The proof of work is not one this site asked for.'),
});

/**
 * The e-mail hint of GET /api/polls/active and POST /api/stats (DESIGN.md): the address when it
 * is one, else ignored. A hint never widens what a visitor sees, so a bad one (a leftover in
 * local storage, a second value) must not break the page either.
 */
const emailHint = z
  .unknown()
  .transform((value) => {
    const parsed = emailAddress.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  })
  .optional();

export const activePollQuery = z.object({ email: emailHint });

/**
 * GET /api/polls/:id/ballot: how long the page has shown the question, in ms (the app's clock);
 * anything else, or nothing, reads as just shown. Capped where it is used (BALLOT_SHOWN_MAX_MS).
 */
export const ballotQuery = z.object({
  shown: z
    .unknown()
    .optional()
    .transform((value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : 0)),
});
export const statsRequest = z
  .object({ voterEmail: emailHint }, { error: 'The request body must be a JSON object.' })
  .nullish()
  .transform((value) => value ?? {});

/** Which e-mails a subscriber gets: the daily one (the default, as before), the weekly digest, or both. */
export const MAIL_FREQUENCIES = ['daily', 'weekly', 'both'] as const;
export type MailFrequency = (typeof MAIL_FREQUENCIES)[number];
export const mailFrequency = z.enum(MAIL_FREQUENCIES, { error: 'Please choose daily, weekly or both.' });

export const subscribeRequest = body({
  email: emailAddress,
  pollId: positiveId('The poll id').nullish(),
  frequency: mailFrequency.nullish().transform((value) => value ?? 'daily'),
});

/** /week/2026-W48: an ISO week. */
export const isoWeekParams = z.object({ week: z.string().regex(/^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/) });

export const suggestionRequest = body({
  question: question('Please enter a poll question.'),
  options: answerOptions,
  suggestedBy: optionalText('The name', NAME_MAX_LENGTH),
  email: optionalEmail,
  /** The topic the visitor picked, by its slug (issue 39, item 5). */
  topic: suggestionTopic,
});

/** One answer of the profile: an id from the dimension's list, null to clear it, or left out. */
function profileAnswer<const Ids extends readonly [string, ...string[]]>(label: string, ids: Ids) {
  return z
    .enum(ids, { error: `${label} must be one of: ${ids.join(', ')}, or null.` })
    .nullable()
    .optional();
}

const idsOf = <const G extends readonly [{ id: string }, ...{ id: string }[]]>(groups: G) =>
  groups.map((group) => group.id) as { [K in keyof G]: G[K]['id'] };

/**
 * PUT /api/me/profile: any of the four answers, each an id or null; the ones left out stay as
 * they are. Nothing else is accepted: no free text ever reaches the profile.
 */
export const profileUpdate = z.strictObject(
  {
    role: profileAnswer('Role', idsOf(ROLES)),
    gradeBand: profileAnswer('Grade level', idsOf(GRADE_BANDS)),
    region: profileAnswer('Region', idsOf(REGIONS)),
    // Retired bands too: a browser that answered before issue 38 keeps its answer when it changes another.
    experience: profileAnswer('Experience', idsOf(EXPERIENCE_ANSWERS)),
  } satisfies Record<keyof Profile, z.ZodType>,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown profile field: ${issue.keys.join(', ')}. The fields are role, gradeBand, region and experience.`
        : 'The request body must be a JSON object.',
  },
);

export type ProfileUpdate = z.output<typeof profileUpdate>;
