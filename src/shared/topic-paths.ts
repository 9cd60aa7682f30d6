/** The addresses of topics and search (issue 39), without the validation (shared/topics.ts), for the browser's lazy parts. */

export const topicPath = (slug: string) => `/topics/${slug}`;
export const topicFeedPath = (slug: string) => `/topics/${slug}/feed.xml`;
export const topicDataPath = (slug: string) => `/data/topics/${slug}.json`;
export const SEARCH_PATH = '/search';

/** The address of a search (what the GET form sends), in one spelling. */
export function searchPath({
  q,
  topic,
  year,
  page,
}: {
  q?: string | undefined;
  topic?: string | undefined;
  year?: number | undefined;
  page?: number | undefined;
}): string {
  const search = new URLSearchParams();
  if (q) search.set('q', q);
  if (topic) search.set('topic', topic);
  if (year) search.set('year', String(year));
  if (page && page > 1) search.set('page', String(page));
  const text = search.toString();
  return text === '' ? SEARCH_PATH : `${SEARCH_PATH}?${text}`;
}
