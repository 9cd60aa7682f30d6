/** What the staff calls answer about polls, votes, suggestions and mail. */
import { z } from '../zod.js';
import { pastPoll, confirmation, resultItem } from './poll-answers.js';
import { topicRef } from './poll-answers.js';

const count = z.number().int().min(0);

export const adminPoll = pastPoll
  .extend({
    status: z
      .enum(['scheduled', 'missed', 'active', 'past'])
      .meta({ description: 'missed: scheduled for a day that passed without it going live.' }),
    askedBefore: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The number of the earlier poll this one asks again.' }),
  })
  .meta({ id: 'AdminPoll', description: 'A poll as staff see it, scheduled ones included.' });

export const savedPoll = confirmation.extend({ poll: adminPoll }).meta({ id: 'SavedPoll' });

export const adminSuggestion = z
  .object({
    id: z.number().int(),
    question: z.string(),
    options: z.array(z.string()),
    status: z.enum(['pending', 'approved', 'rejected']),
    suggestedBy: z.string().nullable(),
    email: z.string().nullable().meta({ description: "The suggester's e-mail: for the owner only, else null." }),
    topic: topicRef.nullable().meta({ description: 'The topic the visitor picked, if any.' }),
    createdAt: z.string(),
    reviewedAt: z.string().nullable(),
  })
  .meta({ id: 'AdminSuggestion' });

export const suggestionsPage = z
  .object({
    suggestions: z.array(adminSuggestion),
    total: count,
    next: z.string().nullable().meta({ description: '`after` for the next page; null on the last.' }),
  })
  .meta({ id: 'SuggestionsPage' });

export const mailStats = z
  .object({
    transport: z.enum(['smtp', 'files']),
    subscribers: z.object({ confirmed: count, unconfirmed: count, unsubscribed: count }),
    outbox: z.object({ queued: count, sending: count, sent: count, failed: count, cancelled: count }),
  })
  .meta({ id: 'MailStats' });

export const voteRecord = z
  .object({
    id: z.number().int(),
    voterEmail: z.string().nullable(),
    optionIndex: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'VoteRecord' });

export const votesSummary = z
  .object({
    totalVotes: count,
    withEmail: count,
    options: z.array(resultItem.pick({ option: true, votes: true }).extend({ withEmail: count })),
  })
  .meta({ id: 'VotesSummary' });

/** POST /api/admin/update-poll-status: the daily switch, run now. */
export const pollStatusUpdate = confirmation
  .extend({
    activatedPollId: z.number().int().nullable().meta({ description: 'The poll that went live; null when none did.' }),
  })
  .meta({ id: 'PollStatusUpdate' });

/** GET /api/admin/polls/:id/votes: with `limit`, one page; without, every vote (streamed). Oldest first. */
export const voteRecords = z.array(voteRecord).meta({ id: 'VoteRecords' });

/** GET /api/poll-suggestions: with `limit`, a page; without, every suggestion (streamed). */
export const suggestionsAnswer = z.union([suggestionsPage, z.array(adminSuggestion)]);

export const adminSeries = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    runs: z.array(
      z.object({
        pollNumber: z.number().int(),
        liveDate: z.string(),
        status: z.enum(['scheduled', 'active', 'past']),
      }),
    ),
  })
  .meta({ id: 'AdminSeries', description: 'A series staff made, with its runs (scheduled ones too), oldest first.' });
