/**
 * What a link to this site shows when it is pasted into a chat, a group or a feed. Crawlers run
 * no script, so the page's title, description and preview image are decided here, on the
 * server: today's question with a call to vote (no results while voting is open: no peeking),
 * or a past poll's question with its final results.
 *
 * Each preview image has a version: a hash of everything drawn on it. It is the image's ETag,
 * and it goes into the image address the page names, so a service that caches images by
 * address fetches the new one when the results change.
 */
import { createHash } from 'node:crypto';
import type { PollResults } from '../../shared/api.js';
import { trackerImagePath, trackerPath, type Tracker } from '../../shared/trackers.js';
import { pollPath, pollPreviewImage, pollUrlOf } from '../../shared/poll-links.js';
import {
  clip,
  DEFAULT_DESCRIPTION,
  PAGE_TITLES,
  pastPollDescription,
  todayDescription,
} from '../../shared/page-head.js';
import { votingDayAt } from '../../shared/time.js';
import { closeTimeLabel, formatLocalDate } from '../../shared/time-labels.js';
import type { Clock } from '../clock.js';
import type { Site } from '../config.js';
import type { PageHead } from '../pages/app-html.js';
import type { PagePreview } from '../pages/client.js';
import type { ActivePollCache } from '../polls/active-poll-cache.js';
import { resultsOf, totalVotes, type PollRecord } from '../polls/poll.js';
import type { OgCard } from './og-image.js';

/** Bump when the drawing changes, so every cached image and address is renewed. */
const TEMPLATE_VERSION = 3;

export { DEFAULT_DESCRIPTION };
const TAGLINE = 'Teachers vote anonymously and see the results.';

/** The preview image of `/` and of today's poll, whichever it is; a past poll's is addressed in poll-links.ts. */
export const TODAY_IMAGE_PATH = '/og/today.png';

/** Today's image may change at the close time; a past poll's stays as it is. */
const TODAY_MAX_AGE_S = 300;
const PAST_MAX_AGE_S = 86_400;

export interface ImagePreview {
  card: OgCard;
  /** A hash of the card: its ETag and the `v` of its address. */
  version: string;
  maxAgeSeconds: number;
}

export interface LinkPreviewDeps {
  clock: Clock;
  site: Pick<Site, 'siteName' | 'publicUrl' | 'timeZone' | 'votingClosesAt'>;
  activePoll: ActivePollCache;
  /** A past poll's final results; undefined for today's, scheduled and unknown numbers. */
  pastPollResults: (pollNumber: number) => Promise<PollResults | undefined>;
  /** A tracker; undefined when there is none at that slug. */
  tracker: (slug: string) => Promise<Tracker | undefined>;
}

function versionOf(card: OgCard): string {
  return createHash('sha256').update(JSON.stringify({ TEMPLATE_VERSION, card })).digest('base64url').slice(0, 22);
}

const image = (card: OgCard, maxAgeSeconds: number): ImagePreview => ({
  card,
  version: versionOf(card),
  maxAgeSeconds,
});

export function createLinkPreviews({ clock, site, activePoll, pastPollResults, tracker }: LinkPreviewDeps) {
  const { siteName, publicUrl } = site;

  const siteCard = image({ kind: 'site', siteName, tagline: TAGLINE }, TODAY_MAX_AGE_S);

  function todayCard(poll: PollRecord, votingOpen: boolean): ImagePreview {
    if (votingOpen) {
      return image(
        {
          kind: 'vote',
          siteName,
          pollLabel: "TODAY'S HOT TAKE!",
          question: poll.question,
          closesAt: closeTimeLabel(site),
        },
        TODAY_MAX_AGE_S,
      );
    }
    return image(
      {
        kind: 'results',
        siteName,
        pollLabel: `Poll #${poll.pollNumber} · today`,
        question: poll.question,
        results: resultsOf(poll),
        totalVotes: totalVotes(poll),
        setAsideVotes: poll.setAsideVotes,
        closed: false,
      },
      TODAY_MAX_AGE_S,
    );
  }

  const pastCard = (poll: PollResults): ImagePreview =>
    image(
      {
        kind: 'results',
        siteName,
        pollLabel: `Poll #${poll.pollNumber} · ${formatLocalDate(poll.liveDate)}`,
        question: poll.question,
        results: poll.results,
        totalVotes: poll.totalVotes,
        setAsideVotes: poll.setAsideVotes,
        closed: true,
      },
      PAST_MAX_AGE_S,
    );

  /** A tracker's card: its newest run's results, under how many times it was asked. */
  const trackerCard = (found: Tracker): ImagePreview => {
    const newest = found.runs.at(-1);
    return image(
      {
        kind: 'results',
        siteName,
        pollLabel: `Tracker · asked ${found.runs.length} times`,
        question: found.question,
        results: found.options.map((option, k) => ({ option, votes: 0, percentage: newest?.percentages[k] ?? 0 })),
        totalVotes: newest?.totalVotes ?? 0,
        setAsideVotes: 0,
        closed: true,
      },
      PAST_MAX_AGE_S,
    );
  };

  /** Today's poll and its phase, or undefined when there is no poll today. */
  async function today() {
    const poll = await activePoll.get();
    if (!poll) return undefined;
    const day = votingDayAt(clock.now(), site);
    return { poll, votingOpen: day.votingOpen, preview: todayCard(poll, day.votingOpen) };
  }

  const imageUrl = (path: string, preview: ImagePreview) => `${publicUrl}${path}?v=${preview.version}`;

  function siteHead(path: string | null, title: string | null = null): PageHead {
    return {
      title,
      description: DEFAULT_DESCRIPTION,
      url: path === null ? null : `${publicUrl}${path}`,
      image: { url: imageUrl(TODAY_IMAGE_PATH, siteCard), alt: `${siteName}: ${TAGLINE}` },
    };
  }

  /** The head of / (or of today's /poll-N, which leads to the same card). */
  function todayHead(path: string, current: Awaited<ReturnType<typeof today>>): PageHead {
    if (!current) return siteHead(path);
    const { poll, votingOpen, preview } = current;
    return {
      title: poll.question,
      description: todayDescription(poll, votingOpen, totalVotes(poll)),
      url: `${publicUrl}${path}`,
      image: {
        url: imageUrl(TODAY_IMAGE_PATH, preview),
        alt: votingOpen ? `Today's question: ${poll.question}` : `Results of today's poll: ${poll.question}`,
      },
    };
  }

  return {
    /** The preview image for today: the call to vote, today's results after the close, or the site's own. */
    async todayImage(): Promise<ImagePreview> {
      return (await today())?.preview ?? siteCard;
    },

    /** The preview image of poll N: final results if past, today's card if today's, else undefined. */
    async pollImage(pollNumber: number): Promise<ImagePreview | undefined> {
      const current = await today();
      if (current?.poll.pollNumber === pollNumber) return current.preview;
      const past = await pastPollResults(pollNumber);
      return past && pastCard(past);
    },

    /** The preview image of a tracker, or undefined when there is none at that slug. */
    async trackerImage(slug: string): Promise<ImagePreview | undefined> {
      const found = await tracker(slug);
      return found && trackerCard(found);
    },

    /** /trackers/<slug>: the tracker's question and newest results, or the 404 page. */
    async trackerPage(slug: string): Promise<PagePreview> {
      const found = await tracker(slug);
      if (!found) return notFoundPage();
      const newest = found.runs.at(-1);
      return {
        status: 200,
        head: {
          title: `${found.name} (tracker)`,
          description: clip(
            `${found.question} Asked ${found.runs.length} times; the latest run, ${newest ? formatLocalDate(newest.liveDate) : ''}: ` +
              found.options.map((option, k) => `${option} ${newest?.percentages[k] ?? 0}%`).join(', ') +
              '.',
          ),
          url: `${publicUrl}${trackerPath(found.slug)}`,
          image: {
            url: imageUrl(trackerImagePath(found.slug), trackerCard(found)),
            alt: `How teachers answered over time: ${found.question}`,
          },
        },
      };
    },

    /**
     * The head of one of the app's screens (not a poll page), with `view` for /?view=; the staff
     * sign-in stays out of search results.
     */
    async screenHead(path: string, view?: string): Promise<PageHead> {
      if (path === '/' && (view === 'archive' || view === 'suggest')) {
        return siteHead(`/?view=${view}`, PAGE_TITLES[view]);
      }
      if (path === '/') return todayHead('/', await today());
      if (['/faq', '/terms', '/privacy', '/methods', '/reminders', '/trackers'].includes(path))
        return siteHead(path, PAGE_TITLES[path.slice(1) as 'faq']);
      return path === '/admin' || path.startsWith('/admin/') ? { ...siteHead(path), noindex: true } : siteHead(path);
    },

    /** /poll-N: a past poll's results, today's card, or a 404 that says nothing of the number. */
    async pollPage(pollNumber: number): Promise<PagePreview> {
      const path = pollPath(pollNumber);
      const current = await today();
      if (current?.poll.pollNumber === pollNumber) return { status: 200, head: todayHead(path, current) };
      const past = await pastPollResults(pollNumber);
      if (!past) return notFoundPage();
      const preview = pastCard(past);
      return {
        status: 200,
        head: {
          title: past.question,
          description: pastPollDescription(past),
          url: pollUrlOf(publicUrl, pollNumber),
          image: {
            url: imageUrl(pollPreviewImage.path(pollNumber), preview),
            alt: `Results of the poll: ${past.question}`,
          },
        },
      };
    },

    notFoundPage,
  };

  function notFoundPage(): PagePreview {
    return { status: 404, head: { ...siteHead(null, PAGE_TITLES.notFound), noindex: true } };
  }
}

export type LinkPreviews = ReturnType<typeof createLinkPreviews>;
