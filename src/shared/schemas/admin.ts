/** What staff send to run polls and review suggestions, and what they are answered. */
import { z } from '../zod.js';
import { DESCRIPTION_MAX_LENGTH, ID_MAX, NOTE_MAX_LENGTH, SUGGESTIONS_PAGE_MAX } from '../limits.js';
import { pollTopics, topicSlug } from '../topics.js';
import { isLocalDate } from '../time.js';
import { answerOptions, body, optionalText, positiveId, question, text } from './fields.js';

/** A poll as staff write it (the admin issue builds on this). */
export const pollDraft = body({
  question: question('Please fill in the question.'),
  description: optionalText('The description', DESCRIPTION_MAX_LENGTH, { multiline: true }),
  options: answerOptions,
  liveDate: z
    .string({ error: 'Please choose a go-live date.' })
    .refine(isLocalDate, 'The go-live date must be a real date written as YYYY-MM-DD.'),
  /** The number of an earlier past poll with the same options: this poll asks it again. */
  askedBefore: positiveId('"Asked before as poll #"')
    .nullish()
    .transform((value) => value ?? null),
  /** The poll's topics by slug (issue 39); left out, an edit keeps the ones it has. */
  topics: pollTopics,
});

/** A poll's staff note; blank removes it. */
export const noteRequest = body({
  body: text('The note', { multiline: true }).max(
    NOTE_MAX_LENGTH,
    `A note can be at most ${NOTE_MAX_LENGTH} characters.`,
  ),
});

/** When the weekly digest leaves on Fridays, in the site's time zone (24-hour clock). */
export const digestSettingsRequest = body({
  sendAt: z
    .string({ error: 'The time must be text.' })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Please give a time such as 16:30 (24-hour clock).'),
});

/** GET /api/admin/polls/:id/votes.csv: with `withEmail=true`, the voter e-mails too (owner, recent sign-in). */
export const votesCsvQuery = z.object({ withEmail: z.enum(['true', 'false']).optional() });

/** GET /api/admin/polls/:id/votes: every vote, or with `limit` one page after vote `after`. */
export const votesQuery = z.object({
  after: z.coerce
    .number({ error: 'after must be a vote id.' })
    .int('after must be a vote id.')
    .min(0, 'after must be a vote id.')
    .max(ID_MAX, 'after must be a vote id.')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit must be a number from 1 to 1000.' })
    .int('limit must be a number from 1 to 1000.')
    .min(1, 'limit must be a number from 1 to 1000.')
    .max(1000, 'limit must be a number from 1 to 1000.')
    .optional(),
  withEmail: z.enum(['true', 'false'], { error: 'withEmail must be true or false.' }).optional(),
});

export const suggestionIdParams = z.object({ id: positiveId('The suggestion id') });
export const topicIdParams = z.object({ id: positiveId('The topic id') });

/** Where a page of a suggestion list ended: its last suggestion's time in the list's order, and its id. */
export interface SuggestionPlace {
  at: string;
  id: number;
}

/** A page's `next`, and the `after` that asks for the page following it: "<time in ms>.<id>". */
export const suggestionPlaceText = ({ at, id }: SuggestionPlace) => `${new Date(at).getTime()}.${id}`;

const NOT_A_PLACE = 'after must be the next of an earlier page.';
const PAGE_LIMIT = `limit must be a number from 1 to ${SUGGESTIONS_PAGE_MAX}.`;

/**
 * GET /api/poll-suggestions: with `limit`, one page of a list (pending, reviewed or, without
 * `status`, every suggestion), after the page whose `next` is `after`.
 */
export const suggestionsQuery = z
  .object({
    status: z.enum(['pending', 'reviewed'], { error: 'status must be pending or reviewed.' }).optional(),
    /** Only suggestions the visitor gave this topic (issue 39, item 5). */
    topic: topicSlug.optional(),
    limit: z.coerce
      .number({ error: PAGE_LIMIT })
      .int(PAGE_LIMIT)
      .min(1, PAGE_LIMIT)
      .max(SUGGESTIONS_PAGE_MAX, PAGE_LIMIT)
      .optional(),
    after: z
      .string({ error: NOT_A_PLACE })
      .transform((value, ctx): SuggestionPlace => {
        const [, ms, id] = /^(\d{1,15})\.(\d{1,10})$/.exec(value) ?? [];
        const at = new Date(Number(ms));
        if (ms === undefined || Number.isNaN(at.getTime()) || Number(id) > ID_MAX) {
          ctx.addIssue({ code: 'custom', message: NOT_A_PLACE });
          return z.NEVER;
        }
        return { at: at.toISOString(), id: Number(id) };
      })
      .optional(),
  })
  .refine(({ limit, status, after, topic }) => limit !== undefined || (status ?? after ?? topic) === undefined, {
    error: `Add a limit (1 to ${SUGGESTIONS_PAGE_MAX}) to read a page of suggestions.`,
  });

/**
 * PUT /api/admin/polls/:id/activate may say which poll staff saw active, and so confirmed
 * retiring ("This will deactivate the current poll."): `null` when none was. If another poll
 * went live since, the change is refused rather than retiring a poll nobody confirmed. Left out
 * (an empty object or no body), the poll is made active whatever is active now.
 */
const NOT_A_REPLACED_POLL = 'replacing must be the id of the poll that is active now, or null.';
export const activateRequest = body({
  replacing: z
    .number({ error: NOT_A_REPLACED_POLL })
    .int(NOT_A_REPLACED_POLL)
    .positive(NOT_A_REPLACED_POLL)
    .max(ID_MAX, NOT_A_REPLACED_POLL)
    .nullable()
    .optional(),
});

export const suggestionStatusRequest = body({
  status: z.enum(['approved', 'rejected'], { error: 'The status must be "approved" or "rejected".' }),
});
