/**
 * What topics, search, staff notes and the weekly digest answer (issue 39). The types in
 * shared/api.ts are these schemas' z.infer.
 */
import { z } from '../zod.js';
import { confirmation, pastPoll, topicRef } from './poll-answers.js';

export const topic = topicRef
  .extend({
    id: z.number().int(),
    pastPolls: z.number().int().min(0).meta({ description: 'Past polls with this topic.' }),
  })
  .meta({ id: 'Topic', description: 'A topic of the list the owner keeps.' });

export const markedText = z.array(z.string()).meta({
  id: 'MarkedText',
  description: 'Text with the matched words marked: an even index is plain, an odd one a matched word.',
});

export const searchHit = pastPoll
  .pick({ id: true, pollNumber: true, liveDate: true, totalVotes: true, topics: true })
  .extend({
    question: markedText,
    description: markedText,
    note: markedText.meta({ description: "The staff note's text, marked (empty until the poll has one)." }),
  })
  .meta({ id: 'SearchHit' });

export const searchResults = z
  .object({
    terms: z.array(z.string()).meta({ description: 'The words searched for, as the search read them.' }),
    topic: topicRef.nullable(),
    year: z.number().int().nullable(),
    page: z.number().int(),
    total: z.number().int().min(0).meta({ description: 'Matching past polls in all pages.' }),
    results: z.array(searchHit),
  })
  .meta({ id: 'SearchResults', description: 'Past polls matching the words, best first.' });

export const adminNote = z
  .object({
    body: z.string(),
    updatedAt: z.string().nullable(),
    writable: z.boolean().meta({ description: 'Whether the poll has closed, so a note may be written.' }),
  })
  .meta({ id: 'AdminNote', description: "A poll's staff note as typed, for the editor." });

export const digestSettings = z
  .object({ sendAt: z.string(), timeZone: z.string() })
  .meta({ id: 'DigestSettings', description: 'When the weekly digest leaves on Fridays (site time zone).' });

/** What adding, renaming or deleting a topic answers: the topic as it was saved. */
export const topicChange = confirmation
  .extend({ topic: topicRef.extend({ id: z.number().int() }) })
  .meta({ id: 'TopicChange' });
