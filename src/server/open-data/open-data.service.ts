/**
 * Every past poll as open data: its number, date, question, options, votes and percentages, and
 * its breakdowns as the breakdown API published them (groups under MIN_GROUP_SIZE withheld,
 * counts rounded: breakdowns.service.ts). Read from the polls' running tallies and the
 * published breakdowns, so it costs O(polls × options × groups) whatever the number of votes.
 *
 * A year of polls makes megabytes of JSON and CSV, so each document is built once per version
 * of the past polls (polls.repository.ts, pastPollsVersion: it moves with every change to what
 * they show) and kept with its compressed bytes. The version is read at most once a second,
 * so an instance serves a document at most a second older than a change made on any instance.
 */
import type { OpenPoll } from '../../shared/api.js';
import { OPEN_DATA_PATHS } from '../../shared/open-data.js';
import { createBreakdownsService } from '../breakdowns/breakdowns.service.js';
import { BuiltDocument } from '../http/built-document.js';
import { toOpenPoll } from '../polls/poll.js';
import { listPastPolls, pastPollsVersion } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { createWeightingService } from '../weighting/weighted.service.js';
import { atomFeed, openDataCsv, openDataJson, type OpenDataScope, type OpenDataSite } from './formats.js';
import { topicsOfPolls } from '../polls/poll-topics.repository.js';
import { topicDataPath, topicFeedPath, topicPath } from '../../shared/topics.js';
import type { TopicRef } from '../../shared/api.js';
import { queuedWeeks } from '../digest/digest.repository.js';
import { findNotes } from '../notes/notes.repository.js';
import { toPollNote } from '../notes/note-markdown.js';

/** How long a reading of the past polls' version is trusted: the longest a document is stale. */
export const PAST_POLLS_VERSION_MAX_AGE_MS = 1000;

/** The past polls, and the weeks whose digest went out (the feed's weekly entries). */
interface OpenData {
  polls: OpenPoll[];
  weeks: string[];
}

type Writer = (site: OpenDataSite, polls: readonly OpenPoll[], weeks: readonly string[]) => string;

export const OPEN_DATA_DOCUMENTS = {
  [OPEN_DATA_PATHS.json]: {
    type: 'application/json; charset=utf-8',
    write: ((site, polls) => openDataJson(site, polls)) as Writer,
  },
  [OPEN_DATA_PATHS.csv]: {
    type: 'text/csv; charset=utf-8; header=present',
    write: ((site, polls) => openDataCsv(site, polls)) as Writer,
  },
  [OPEN_DATA_PATHS.feed]: {
    type: 'application/atom+xml; charset=utf-8',
    write: ((site, polls, weeks) => atomFeed(site, polls, undefined, weeks)) as Writer,
  },
} as const;

/** The digests of this many weeks are in the feed. */
const FEED_WEEKS = 26;

export type OpenDataPath = keyof typeof OPEN_DATA_DOCUMENTS;

export function createOpenDataService({ db, site, clock }: Pick<ServiceDeps, 'db' | 'site' | 'clock'>) {
  const weighting = createWeightingService({ db, clock });
  const breakdowns = createBreakdownsService({ db, clock, site });

  /**
   * Every past poll, oldest first, with its weighted lines: each computed once and kept
   * (weighting/), so a build reads one kept row per poll.
   */
  async function pastPolls(): Promise<OpenData> {
    const polls = (await listPastPolls(db)).reverse();
    const published = await breakdowns.dimensionsOf(polls);
    const ids = polls.map((poll) => poll.id);
    const topics = await topicsOfPolls(db, ids);
    const notes = await findNotes(db, ids);
    const open: OpenPoll[] = [];
    for (const poll of polls) {
      const note = notes.get(poll.id);
      open.push({
        ...toOpenPoll(poll, site, published.get(poll.id) ?? [], await weighting.ofPoll(poll)),
        topics: topics.get(poll.id) ?? [],
        note: note ? toPollNote(note) : null,
      });
    }
    return { polls: open, weeks: await queuedWeeks(db, FEED_WEEKS) };
  }

  let version: { value: Promise<string>; readAt: number } | undefined;
  /** The past polls' version, read again when the last reading is over a second old. */
  function currentVersion(): Promise<string> {
    const now = clock.now().getTime();
    // A clock set back makes the reading old too.
    if (!version || now - version.readAt >= PAST_POLLS_VERSION_MAX_AGE_MS || now < version.readAt) {
      const value = pastPollsVersion(db);
      const reading = { value, readAt: now };
      version = reading;
      value.catch(() => {
        if (version === reading) version = undefined;
      });
    }
    return version.value;
  }

  /** The past polls of one version, read once for its three documents. */
  let read: { version: string; polls: Promise<OpenData> } | undefined;
  function pastPollsOf(version: string): Promise<OpenData> {
    if (read?.version !== version) {
      const reading = { version, polls: pastPolls() };
      read = reading;
      reading.polls.catch(() => {
        if (read === reading) read = undefined;
      });
    }
    return read.polls;
  }

  const documents = new Map<OpenDataPath, { version: string; document: Promise<BuiltDocument> }>();
  let builds = 0;
  /** Each topic's documents, by kind and slug: only topics that exist get here (the routes ask first). */
  const topicDocuments = new Map<string, { version: string; document: Promise<BuiltDocument> }>();

  /** One topic's past polls, oldest first, of the current version. */
  async function pollsOfTopic(slug: string): Promise<OpenPoll[]> {
    const { polls } = await pastPollsOf(await currentVersion());
    return polls.filter((poll) => poll.topics?.some((topic) => topic.slug === slug));
  }

  return {
    /**
     * The document at `path`, built once per version of the past polls: requests that come
     * while it is being built wait for that one build.
     */
    async document(path: OpenDataPath): Promise<BuiltDocument> {
      const current = await currentVersion();
      const kept = documents.get(path);
      if (kept?.version === current) return kept.document;
      const { type, write } = OPEN_DATA_DOCUMENTS[path];
      const document = pastPollsOf(current).then(({ polls, weeks }) => {
        builds += 1;
        return new BuiltDocument(write(site, polls, weeks), type);
      });
      const entry = { version: current, document };
      documents.set(path, entry);
      document.catch(() => {
        if (documents.get(path) === entry) documents.delete(path);
      });
      return document;
    },

    /** One topic's past polls, newest first, from the same reading as the open data (the topic's page). */
    async topicPolls(slug: string): Promise<OpenPoll[]> {
      return (await pollsOfTopic(slug)).reverse();
    },

    /** A topic's JSON or Atom feed, built once per version of the past polls. */
    async topicDocument(topic: TopicRef, kind: 'json' | 'feed'): Promise<BuiltDocument> {
      const current = await currentVersion();
      const key = `${kind}\n${topic.slug}\n${topic.name}`;
      const kept = topicDocuments.get(key);
      if (kept?.version === current) return kept.document;
      const scope: OpenDataScope = {
        title: `${site.siteName}: ${topic.name}`,
        selfPath: kind === 'json' ? topicDataPath(topic.slug) : topicFeedPath(topic.slug),
        pagePath: topicPath(topic.slug),
        topic,
      };
      const document = pollsOfTopic(topic.slug).then((polls) => {
        builds += 1;
        return kind === 'json'
          ? new BuiltDocument(openDataJson(site, polls, scope), OPEN_DATA_DOCUMENTS[OPEN_DATA_PATHS.json].type)
          : new BuiltDocument(atomFeed(site, polls, scope), OPEN_DATA_DOCUMENTS[OPEN_DATA_PATHS.feed].type);
      });
      const entry = { version: current, document };
      // Renamed or deleted topics' documents go with the next version; a bounded list all the same.
      if (topicDocuments.size >= 200) topicDocuments.clear();
      topicDocuments.set(key, entry);
      document.catch(() => {
        if (topicDocuments.get(key) === entry) topicDocuments.delete(key);
      });
      return document;
    },

    /** How many documents were built (not served from memory): tests count them. */
    get builds(): number {
      return builds;
    },
  };
}

export type OpenDataService = ReturnType<typeof createOpenDataService>;
