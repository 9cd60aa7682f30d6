/**
 * /search: the archive's search as a page the server writes (pages/site-page.ts), a GET form
 * that works without scripts, and the results at their own address (/search?q=…&topic=…&year=…).
 * With no words it lists the topics, so it is also where topics are browsed.
 */
import type { SearchHit, SearchResults, TopicRef } from '../../shared/api.js';
import { SEARCH_PAGE_SIZE, SEARCH_PAGES_MAX, SEARCH_QUERY_MAX_LENGTH } from '../../shared/limits.js';
import { pollPath } from '../../shared/poll-links.js';
import { votesText } from '../../shared/results.js';
import { formatLocalDate } from '../../shared/time-labels.js';
import { searchPath, topicPath, type SearchQuery } from '../../shared/topics.js';
import { escapeHtml as e } from '../pages/app-html.js';
import { markedHtml, topicLinksHtml, type SitePage } from '../pages/site-page.js';

export interface SearchChoices {
  topics: (TopicRef & { pastPolls?: number })[];
  years: number[];
}

const selected = (on: boolean) => (on ? ' selected' : '');

function formHtml(query: Partial<SearchQuery>, { topics, years }: SearchChoices): string {
  const topicOptions = topics.map(
    (topic) => `<option value="${e(topic.slug)}"${selected(query.topic === topic.slug)}>${e(topic.name)}</option>`,
  );
  const yearOptions = years.map((year) => `<option value="${year}"${selected(query.year === year)}>${year}</option>`);
  return `<form class="search card" method="get" action="/search" role="search">
<div class="q"><label for="q">Search past polls</label>
<input id="q" name="q" type="search" value="${e(query.q ?? '')}" maxlength="${SEARCH_QUERY_MAX_LENGTH}" placeholder="phones, workload, marking…" autocomplete="off"></div>
<div><label for="topic">Topic</label><select id="topic" name="topic"><option value="">All topics</option>${topicOptions.join('')}</select></div>
<div><label for="year">Year</label><select id="year" name="year"><option value="">Any year</option>${yearOptions.join('')}</select></div>
<button type="submit">Search</button>
</form>`;
}

function hitHtml(hit: SearchHit): string {
  const description = hit.description.join('') === '' ? '' : `<p class="text">${markedHtml(hit.description)}</p>`;
  const note =
    hit.note.join('') === '' ? '' : `<p class="text"><strong>What we learned:</strong> ${markedHtml(hit.note)}</p>`;
  return `<li class="card">
<p class="meta"><time datetime="${e(hit.liveDate)}">${e(formatLocalDate(hit.liveDate))}</time> · Poll #${hit.pollNumber} · ${e(votesText(hit.totalVotes))}</p>
<h2 class="question"><a href="${e(pollPath(hit.pollNumber))}">${markedHtml(hit.question)}</a></h2>
${description}${note}${topicLinksHtml(hit.topics)}
</li>`;
}

function pagesHtml(query: SearchQuery, total: number): string {
  const last = Math.min(SEARCH_PAGES_MAX, Math.ceil(total / SEARCH_PAGE_SIZE));
  if (last <= 1) return '';
  const previous =
    query.page > 1
      ? `<a href="${e(searchPath({ ...query, page: query.page - 1 }))}" rel="prev">Previous</a>`
      : '<span></span>';
  const next =
    query.page < last
      ? `<a href="${e(searchPath({ ...query, page: query.page + 1 }))}" rel="next">Next</a>`
      : '<span></span>';
  return `<nav class="pages" aria-label="Result pages">${previous}<span>Page ${query.page} of ${last}</span>${next}</nav>`;
}

function topicIndexHtml(topics: SearchChoices['topics']): string {
  if (topics.length === 0) return '';
  const items = topics.map(
    (topic) =>
      `<li><a href="${e(topicPath(topic.slug))}">${e(topic.name)}${topic.pastPolls === undefined ? '' : ` (${topic.pastPolls})`}</a></li>`,
  );
  return `<h2>Browse by topic</h2><ul class="topics">${items.join('')}</ul>`;
}

/** The search page for a query that was read. */
export function searchPage(query: SearchQuery, found: SearchResults, choices: SearchChoices): SitePage {
  const words = query.q.trim();
  let body: string;
  if (found.terms.length === 0) {
    body =
      (words === '' ? '' : '<p class="notice" role="status">Type a word to search for: letters or numbers.</p>') +
      topicIndexHtml(choices.topics);
  } else {
    const said = found.total === 1 ? '1 past poll matches' : `${found.total} past polls match`;
    const where = [found.topic ? `in ${found.topic.name}` : '', found.year ? `in ${found.year}` : ''].filter(Boolean);
    body = `<p class="lead" role="status">${e(said)} “${e(found.terms.join(' '))}”${where.length ? ` ${e(where.join(' '))}` : ''}.</p>
${found.results.length ? `<ol class="list">${found.results.map(hitHtml).join('\n')}</ol>` : '<p class="card">No past polls match. Try fewer or other words, or another topic or year.</p>'}
${pagesHtml(query, found.total)}`;
  }
  return {
    status: 200,
    title: words === '' ? 'Search past polls' : `Search: ${words}`,
    description: 'Search the questions, descriptions and notes of past Hot Takes.',
    path: searchPath(query),
    noindex: words !== '',
    body: `<h1>Search past polls</h1>\n${formHtml(query, choices)}\n${body}`,
  };
}

/** A query refused (too long, a bad year or page, an unknown topic): the form again, with why. */
export function refusedSearchPage(status: number, message: string, q: string, choices: SearchChoices): SitePage {
  const shown = q.length <= SEARCH_QUERY_MAX_LENGTH ? q : '';
  return {
    status,
    title: 'Search past polls',
    description: 'Search the questions, descriptions and notes of past Hot Takes.',
    path: '/search',
    noindex: true,
    body: `<h1>Search past polls</h1>\n<p class="notice" role="alert">${e(message)}</p>\n${formHtml({ q: shown }, choices)}`,
  };
}
