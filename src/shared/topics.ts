/**
 * Topics and search (issue 39): what visitors and staff send about them, validated the same in
 * the browser and on the server.
 */
import { z } from './zod.js';
import {
  SEARCH_PAGES_MAX,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_TERMS_MAX,
  TOPIC_NAME_MAX_LENGTH,
  TOPICS_PER_POLL_MAX,
} from './limits.js';

export { SEARCH_PATH, searchPath, topicDataPath, topicFeedPath, topicPath } from './topic-paths.js';

/** A topic's address: lowercase words joined by hyphens (/topics/pay-and-conditions). */
export const TOPIC_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TOPIC_SLUG_MAX_LENGTH = 60;

/** The slug a name makes: "Technology and AI" is technology-and-ai. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, TOPIC_SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
}

export const topicSlug = z
  .string({ error: 'A topic must be named by its address, such as "workload".' })
  .max(TOPIC_SLUG_MAX_LENGTH, 'There is no such topic.')
  .regex(TOPIC_SLUG, 'There is no such topic.');

/** A poll's topics as staff give them: slugs from the list, at most TOPICS_PER_POLL_MAX. */
export const pollTopics = z
  .array(topicSlug, { error: 'Topics must be a list of topic addresses.' })
  .max(TOPICS_PER_POLL_MAX, `A poll can have at most ${TOPICS_PER_POLL_MAX} topics.`)
  .optional();

/** A suggestion's topic: optional; blank counts as none. */
export const suggestionTopic = z
  .union([z.literal(''), topicSlug], { error: 'There is no such topic.' })
  .nullish()
  .transform((value) => value || undefined);

/** POST /api/admin/topics and PUT /api/admin/topics/:id: a topic's name. */
export const topicRequest = z.object(
  {
    name: z
      .string({ error: 'The topic name must be text.' })
      .trim()
      .min(1, 'Please enter the topic name.')
      .max(TOPIC_NAME_MAX_LENGTH, `A topic name can be at most ${TOPIC_NAME_MAX_LENGTH} characters.`)
      .refine((value) => !/[\p{Cc}\p{Cs}]/u.test(value), 'The topic name contains an invisible control character.')
      .refine((value) => slugOf(value) !== '', 'A topic name needs at least one letter or digit.'),
  },
  { error: 'The request body must be a JSON object.' },
);

export const topicParams = z.object({ slug: topicSlug });

/**
 * The words of a search, as both databases will read them: runs of letters, marks and digits,
 * lowercased, each once, at most SEARCH_TERMS_MAX. Everything else (quotes, operators, FTS
 * syntax, emoji, control characters) only separates words, so no query can be a syntax error.
 */
export function searchTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? [];
  return [...new Set(words)].slice(0, SEARCH_TERMS_MAX);
}

const QUERY_TOO_LONG = `A search can be at most ${SEARCH_QUERY_MAX_LENGTH} characters.`;
const NOT_A_YEAR = 'The year must be written as four digits, such as 2026.';
const NOT_A_PAGE = `The page must be a number from 1 to ${SEARCH_PAGES_MAX}.`;

/** GET /search and /api/search: every parameter optional, a blank one left out. */
export const searchQuery = z.object({
  q: z
    .string({ error: 'Search for words, written once in the address.' })
    .max(SEARCH_QUERY_MAX_LENGTH, QUERY_TOO_LONG)
    .optional()
    .transform((value) => value ?? ''),
  topic: z
    .union([z.literal(''), topicSlug], { error: 'There is no such topic.' })
    .optional()
    .transform((value) => value || undefined),
  year: z
    .union([z.literal(''), z.string().regex(/^\d{4}$/, NOT_A_YEAR)], { error: NOT_A_YEAR })
    .optional()
    .transform((value) => (value ? Number(value) : undefined)),
  page: z
    .union([z.literal(''), z.string().regex(/^\d{1,2}$/, NOT_A_PAGE)], { error: NOT_A_PAGE })
    .optional()
    .transform((value, ctx) => {
      const page = value ? Number(value) : 1;
      if (page < 1 || page > SEARCH_PAGES_MAX) {
        ctx.addIssue({ code: 'custom', message: NOT_A_PAGE });
        return z.NEVER;
      }
      return page;
    }),
});

export type SearchQuery = z.output<typeof searchQuery>;
