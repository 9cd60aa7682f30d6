/** What staff send about a series (issue 38, item 3): its name and its slug, and the address of one. */
import type { adminSeries } from './schemas/admin-answers.js';
import { z } from './zod.js';
import { ID_MAX } from './limits.js';
import { SERIES_NAME_MAX, SERIES_SLUG_MAX, SERIES_SLUG_PATTERN } from './trackers.js';

export const seriesIdParams = z.object({
  id: z.coerce
    .number({ error: 'The series id must be a number.' })
    .int('The series id must be a whole number.')
    .positive('The series id must be a positive number.')
    .max(ID_MAX, 'The series id is too large.'),
});

export const trackerSlugParams = z.object({
  slug: z
    .string()
    .max(SERIES_SLUG_MAX, 'There is no tracker here.')
    .regex(SERIES_SLUG_PATTERN, 'There is no tracker here.'),
});

export const seriesChange = z.object(
  {
    name: z
      .string({ error: 'Please give the series a name.' })
      .transform((value) => value.replace(/\s+/g, ' ').trim())
      .pipe(
        z
          .string()
          .min(1, 'Please give the series a name.')
          .max(SERIES_NAME_MAX, `A series name is at most ${SERIES_NAME_MAX} characters.`),
      ),
    slug: z
      .string({ error: 'Please give the series an address.' })
      .transform((value) => value.trim())
      .pipe(
        z
          .string()
          .min(1, 'Please give the series an address.')
          .max(SERIES_SLUG_MAX, `A series address is at most ${SERIES_SLUG_MAX} characters.`)
          .regex(SERIES_SLUG_PATTERN, 'A series address uses lower-case letters and digits joined by single hyphens.'),
      ),
  },
  { error: 'The request body must be a JSON object.' },
);

export type SeriesChange = z.infer<typeof seriesChange>;

/** GET /api/admin/series: every series staff made, with its runs (scheduled ones too), oldest first. */
export type AdminSeries = z.infer<typeof adminSeries>;
