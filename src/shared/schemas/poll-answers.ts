/**
 * What the public API answers about polls: today's poll, past polls, results, breakdowns,
 * ballots, stats. The types in shared/api.ts are these schemas' z.infer; the server declares
 * them as each route's `response`, so the API document (GET /openapi.json) describes them.
 */
import { z } from '../zod.js';
import { EXPERIENCE_ANSWERS, GRADE_BANDS, PROFILE_DIMENSIONS, REGIONS, ROLES } from '../profile.js';

const count = z.number().int().min(0);
const instant = z.string().meta({ description: 'An ISO 8601 instant (UTC).' });
const localDate = z.string().meta({ description: "A day in the site's time zone, YYYY-MM-DD." });

export const resultItem = z
  .object({
    option: z.string(),
    votes: count,
    percentage: z.number().meta({ description: "Whole percent; a poll's add up to 100 (or are all 0)." }),
  })
  .meta({ id: 'ResultItem', description: "One row of a poll's results." });

const withheldReason = z.enum([
  'voting-open',
  'too-few-votes',
  'small-category',
  'not-converged',
  'small-effective-sample',
  'secondary-suppression',
]);

export const weighted = z
  .union([
    z.object({
      population: z.string(),
      percentages: z.array(z.number()),
      votesInScope: count,
      effectiveSample: z.number(),
      designEffect: z.number(),
      interval: z
        .object({
          low: z.array(z.number()),
          high: z.array(z.number()),
          designEffects: z.array(z.number().nullable()),
          replicates: z.number().int(),
          seed: z.number().int(),
        })
        .optional(),
      heavyWeights: z
        .object({
          votes: count,
          share: z.number().meta({ description: 'Their share of all the weight, in percent to one decimal.' }),
        })
        .optional()
        .meta({ description: 'Votes weighted more than 3x the mean weight, and the share of the line they carry.' }),
      yearsBands: z
        .union([z.literal(2), z.literal(4)])
        .optional()
        .meta({
          description:
            "Years teaching raked on NCES's 4 bands, or on 2 (3 years or less, 4 or more) when too few votes place them in the 4.",
        }),
    }),
    z.object({ withheld: withheldReason, votesInScope: count }),
  ])
  .meta({
    id: 'Weighted',
    description: 'The result adjusted to the mix of US K-12 teachers (/methods), or the rule that withheld it.',
  });

export const poll = z.object({
  id: z.number().int(),
  pollNumber: z.number().int().meta({ description: 'Public number of the poll, as in /poll-N; never reused.' }),
  question: z.string(),
  description: z.string().nullable(),
  options: z.array(z.string()),
  liveDate: localDate,
  createdAt: instant,
  isActive: z.boolean(),
});

/** A topic as a poll names it: /topics/<slug>. */
export const topicRef = z.object({ slug: z.string(), name: z.string() }).meta({ id: 'TopicRef' });

/** A staff note as readers get it: rendered on the server from a safe Markdown subset, and as plain text. */
export const pollNote = z
  .object({
    html: z.string(),
    text: z.string(),
    updatedAt: instant.meta({ description: 'When it was last changed, shown with it.' }),
  })
  .meta({ id: 'PollNote', description: 'The staff note, "What we learned".' });

export const pastPoll = poll
  .extend({
    totalVotes: count,
    setAsideVotes: count.meta({
      description: 'Votes received but in no figure: held, or discounted by staff after review.',
    }),
    topics: z
      .array(topicRef)
      .optional()
      .meta({ description: "The topics staff gave it, in the list's order; on past polls and their results." }),
  })
  .meta({ id: 'PastPoll', description: 'A past poll, for the archive.' });

export const seriesRun = z
  .object({ pollNumber: z.number().int(), liveDate: localDate, totalVotes: count, results: z.array(resultItem) })
  .meta({ id: 'SeriesRun', description: 'One run of a question asked more than once.' });

export const pollResults = pastPoll
  .pick({
    id: true,
    pollNumber: true,
    question: true,
    description: true,
    options: true,
    liveDate: true,
    totalVotes: true,
    setAsideVotes: true,
    topics: true,
  })
  .extend({
    results: z.array(resultItem),
    series: z.array(seriesRun).meta({ description: 'The other runs of the same question, oldest first.' }),
    weighted,
    tracker: z
      .object({ slug: z.string(), name: z.string() })
      .optional()
      .meta({ description: 'The tracker of its series, once the question has been asked twice.' }),
    note: pollNote.nullable().optional(),
  })
  .meta({ id: 'PollResults', description: "A past poll's final results." });

export const activePoll = pastPoll
  .extend({
    setAsideVotes: count.nullable().meta({
      description:
        'Published once voting has closed; null while it is open (a growing count would show a stuffer the line).',
    }),
    userVoted: z.boolean(),
    userVoteOption: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The option this visitor chose; null before voting, and while their vote is held.' }),
    voteHeld: z.boolean().meta({
      description:
        "This visitor's vote is recorded but held for a check: in no figure yet, so no results are shown to them while voting is open.",
    }),
    results: z
      .array(resultItem)
      .nullable()
      .meta({ description: 'Null until this visitor has voted or voting has closed: no peeking.' }),
    votingOpen: z.boolean(),
    closesAt: instant,
    series: z.array(seriesRun).nullable(),
    weighted: weighted.optional().meta({ description: 'From the close time on; absent while voting is open.' }),
  })
  .meta({ id: 'ActivePoll', description: "Today's poll, as this visitor may see it." });

export const ballot = z
  .object({
    token: z.string(),
    proofOfWork: z.boolean().meta({ description: 'The vote must carry a proof of work (`proof`).' }),
  })
  .meta({ id: 'Ballot', description: "This visitor's ballot for a vote on today's poll, sent back with the vote." });

export const proofOfWorkChallenge = z
  .object({
    parameters: z.object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      memoryCost: z.number().optional(),
      parallelism: z.number().optional(),
      expiresAt: z.number().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string().optional(),
  })
  .meta({
    id: 'ProofOfWorkChallenge',
    description: 'An ALTCHA challenge, bound to the poll and network for 5 minutes.',
  });

export const stats = z
  .object({
    totalPolls: count.meta({ description: "Polls that have gone live: past polls plus today's." }),
    totalVotes: count.meta({ description: 'Votes cast by this visitor.' }),
    streak: count.meta({ description: 'Consecutive days on which this visitor voted, ending today (or yesterday).' }),
  })
  .meta({ id: 'Stats' });

export const confirmation = z.object({ message: z.string() }).meta({ id: 'Confirmation' });

export const voteReceipt = confirmation
  .extend({ pollId: z.number().int(), optionIndex: z.number().int() })
  .meta({ id: 'VoteReceipt' });

export const suggestionReceipt = confirmation.extend({ id: z.number().int() }).meta({ id: 'SuggestionReceipt' });

const ids = <const G extends readonly { id: string }[]>(groups: G) =>
  groups.map((group) => group.id) as unknown as [G[number]['id'], ...G[number]['id'][]];

export const profile = z
  .object({
    role: z.enum(ids(ROLES)).nullable(),
    gradeBand: z.enum(ids(GRADE_BANDS)).nullable(),
    region: z.enum(ids(REGIONS)).nullable(),
    experience: z.enum(ids(EXPERIENCE_ANSWERS)).nullable(),
  })
  .meta({ id: 'Profile', description: 'This browser\'s "about you" answers; null where not given.' });

const breakdownGroup = z.object({
  value: z.string(),
  label: z.string(),
  totalVotes: count,
  results: z.array(resultItem),
  weighted: weighted.optional(),
});

export const breakdown = z
  .object({
    pollId: z.number().int(),
    pollNumber: z.number().int(),
    totalVotes: count,
    setAsideVotes: count,
    minGroupSize: z.number().int(),
    roundedTo: z.number().int().meta({ description: 'Every count of `dimensions` is a multiple of this.' }),
    correction: z.string().nullable(),
    dimensions: z.array(
      z.object({
        dimension: z.enum(PROFILE_DIMENSIONS.map((d) => d.dimension) as ['role', 'gradeBand', 'region', 'experience']),
        label: z.string(),
        groups: z.array(breakdownGroup),
        withheldVotes: count,
        notSaidVotes: count,
        alsoWithheld: breakdownGroup.pick({ value: true, label: true, totalVotes: true }).nullable(),
      }),
    ),
  })
  .meta({ id: 'Breakdown', description: "A closed poll's results by role, grade level, region and experience." });
