/**
 * What GET /api/trackers and GET /api/trackers/:slug answer (issue 38, item 2). The types in
 * shared/trackers.ts are these schemas' z.infer (a type-only import there), so the schemas stay
 * on the server while the tracker pages keep their types.
 */
import { z } from '../zod.js';

const count = z.number().int().min(0);
const localDate = z.string().meta({ description: "A day in the site's time zone, YYYY-MM-DD." });
const percentages = z.array(z.number()).meta({
  description: 'Per option, in the tracker’s order: whole percent (0 for every option of a run nobody voted on).',
});

export const trackerAdjusted = z
  .object({
    percentages: z.array(z.number()).meta({ description: 'Per option, in the tracker’s order, in whole percent.' }),
    low: z
      .array(z.number())
      .optional()
      .meta({ description: "The 95% credibility interval's lower ends; absent when the line was kept without one." }),
    high: z.array(z.number()).optional().meta({ description: "The 95% credibility interval's upper ends." }),
  })
  .meta({ id: 'TrackerAdjusted', description: 'The adjusted line of one run, where it is shown (/methods).' });

export const trackerRun = z
  .object({
    pollNumber: z.number().int(),
    liveDate: localDate,
    totalVotes: count,
    percentages,
    adjusted: trackerAdjusted.nullable().meta({ description: 'The adjusted line, or null where it is withheld.' }),
  })
  .meta({ id: 'TrackerRun', description: 'One run of a tracked question.' });

export const trackerChange = z
  .object({
    option: z.string(),
    from: z.number(),
    to: z.number(),
    withinBands: z.boolean().nullable().meta({
      description:
        "Both runs' adjusted bands for this option overlap: the move may be no real change. Null: no bands to compare.",
    }),
  })
  .meta({ id: 'TrackerChange', description: 'How one option moved from the run before the newest to the newest.' });

export const trackerSummary = z
  .object({
    slug: z.string(),
    name: z.string(),
    question: z.string(),
    options: z.array(z.string()),
    runs: z
      .array(
        trackerRun
          .pick({ pollNumber: true, liveDate: true, totalVotes: true, percentages: true })
          .meta({ id: 'TrackerRunSummary', description: 'One run, without its adjusted line.' }),
      )
      .meta({ description: 'Oldest first; at least two.' }),
  })
  .meta({ id: 'TrackerSummary', description: 'A question asked at least twice, in the list of trackers.' });

export const tracker = trackerSummary
  .extend({
    runs: z.array(trackerRun).meta({ description: 'Oldest first; at least two.' }),
    changes: z
      .array(trackerChange)
      .meta({ description: 'Since the previous run, per option; empty when either run had no votes.' }),
  })
  .meta({ id: 'Tracker', description: 'A question asked at least twice, followed over time.' });
