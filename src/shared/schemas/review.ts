/**
 * Staff review of a poll's votes (src/server/review/): what staff send, and the integrity report
 * and changes they are answered.
 */
import { z } from '../zod.js';
import { INTEGRITY_REASON_MAX_LENGTH } from '../limits.js';
import { body, positiveId, text } from './fields.js';

/**
 * Staff review of a poll's votes (src/server/integrity/). A network is named by its bucket: the
 * 16 hex digits of a keyed hash of its address block, as the integrity report lists it.
 */
const NOT_A_BUCKET = "bucket must be a network's 16-character code, as the integrity report gives it.";
const bucketCode = z
  .string({ error: NOT_A_BUCKET })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{16}$/, NOT_A_BUCKET);

/** An instant written in ISO 8601 with its offset ("2026-11-21T15:04:05.000Z"), read as UTC. */
const instant = (field: string) =>
  z
    .string({ error: `${field} must be a time such as 2026-11-21T15:04:05Z.` })
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/,
      `${field} must be a time such as 2026-11-21T15:04:05Z.`,
    )
    .transform((value, ctx) => {
      const time = new Date(value);
      if (Number.isNaN(time.getTime())) {
        ctx.addIssue({ code: 'custom', message: `${field} is not a real time.` });
        return z.NEVER;
      }
      return time.toISOString();
    });

/** Why: required where votes are set aside, so the log says it to whoever looks later. */
const reviewReason = text('The reason').max(
  INTEGRITY_REASON_MAX_LENGTH,
  `The reason can be at most ${INTEGRITY_REASON_MAX_LENGTH} characters.`,
);

export const discountIdParams = z.object({
  id: positiveId('The poll id'),
  discountId: positiveId('The discount id'),
});

/**
 * What a discount may pick besides the time: votes from first-time browsers, or without the
 * ballot of a served page (a surge's signals, integrity/detector.ts).
 */
export const discountSignals = ['first-time', 'no-page'] as const;

/**
 * POST /api/admin/polls/:id/discounts: the counted votes between two times of one network, or
 * with one signal (a surge set aside in one action), or both.
 */
export const discountRequest = body({
  bucket: bucketCode.nullish().transform((value) => value ?? undefined),
  signal: z
    .enum(discountSignals, { error: 'signal must be first-time or no-page.' })
    .nullish()
    .transform((value) => value ?? undefined),
  from: instant('from'),
  to: instant('to'),
  reason: reviewReason.min(1, 'Please give a reason for setting these votes aside.'),
})
  .refine(({ from, to }) => from <= to, { error: 'from must not be after to.', path: ['to'] })
  .refine(({ bucket, signal }) => bucket !== undefined || signal !== undefined, {
    error: 'Name a network (bucket) or a signal (first-time or no-page).',
    path: ['bucket'],
  });

/** POST /api/admin/polls/:id/held/release: one network's held votes, or (no bucket) every held vote. */
export const releaseRequest = body({
  bucket: bucketCode.nullish().transform((value) => value ?? undefined),
  reason: reviewReason.nullish().transform((value) => value || undefined),
})
  .nullish()
  .transform((value) => value ?? { bucket: undefined, reason: undefined });

/** PUT /api/admin/polls/:id/challenge: ask every vote on the poll for a proof of work, or stop. */
export const challengeRequest = body({
  everyone: z.boolean({ error: 'everyone must be true or false.' }),
});
