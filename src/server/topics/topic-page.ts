/**
 * /topics/<slug>: a topic's past polls with their results, newest first, written by the server
 * (pages/site-page.ts), with its Atom feed and open data linked.
 */
import type { OpenPoll } from '../../shared/api.js';
import { setAsideNote, votesText } from '../../shared/results.js';
import { formatLocalDate } from '../../shared/time-labels.js';
import { pollPath } from '../../shared/poll-links.js';
import { searchPath, topicDataPath, topicFeedPath, topicPath } from '../../shared/topics.js';
import { escapeHtml as e } from '../pages/app-html.js';
import { resultsHtml, topicLinksHtml, type SitePage } from '../pages/site-page.js';

function pollHtml(poll: OpenPoll): string {
  const setAside = setAsideNote(poll.setAsideVotes);
  return `<li class="card">
<p class="meta"><time datetime="${e(poll.date)}">${e(formatLocalDate(poll.date))}</time> · Poll #${poll.pollNumber}</p>
<h2 class="question"><a href="${e(pollPath(poll.pollNumber))}">${e(poll.question)}</a></h2>
${resultsHtml(poll.results)}
<p class="meta">${e(votesText(poll.totalVotes))}${setAside ? ` · ${e(setAside)}` : ''}</p>
${topicLinksHtml(poll.topics)}
</li>`;
}

export function topicPage(topic: { slug: string; name: string }, polls: readonly OpenPoll[]): SitePage {
  const count = polls.length === 1 ? '1 past poll' : `${polls.length} past polls`;
  const list =
    polls.length === 0
      ? '<p class="card">No past polls on this topic yet.</p>'
      : `<ol class="list">${polls.map(pollHtml).join('\n')}</ol>`;
  return {
    status: 200,
    title: topic.name,
    description: `${count} on ${topic.name}: what teachers answered.`,
    path: topicPath(topic.slug),
    feed: { title: `${topic.name}: past polls`, path: topicFeedPath(topic.slug) },
    body: `<p class="meta">Topic</p>
<h1>${e(topic.name)}</h1>
<p class="lead">${e(count)}, newest first. <a href="${e(searchPath({ topic: topic.slug }))}">Search this topic</a> ·
<a href="${e(topicFeedPath(topic.slug))}">Atom feed</a> · <a href="${e(topicDataPath(topic.slug))}">Open data (JSON)</a></p>
${list}`,
  };
}

export function noSuchTopicPage(slug: string): SitePage {
  return {
    status: 404,
    title: 'Topic not found',
    description: 'There is no such topic.',
    path: topicPath(slug),
    noindex: true,
    body: `<h1>Topic not found</h1><p class="lead">There is no such topic. <a href="/search">Search past polls</a>.</p>`,
  };
}
