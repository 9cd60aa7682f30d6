/**
 * Staff notes, "What we learned" (issue 39, item 3): an editor writes one after a poll has
 * closed. `save` is the one place a note changes: the edit and its audit row in one
 * transaction. Search (issue 39, item 2) reindexes a poll's note from here, inside the same
 * transaction, so the index never disagrees with the note.
 */
import type { PollNote } from '../../shared/api.js';
import { votingDayAt } from '../../shared/time.js';
import type { ServiceDeps } from '../service-deps.js';
import { findPollById, markPastPollsChanged } from '../polls/polls.repository.js';
import type { AuditWrite } from '../staff/audit.js';
import { toPollNote } from './note-markdown.js';
import { findNote, writeNote } from './notes.repository.js';

export type NoteSaveOutcome = 'saved' | 'removed' | 'unchanged' | 'not-found' | 'not-closed';

export function createNotesService({ db, clock, site }: Pick<ServiceDeps, 'db' | 'clock' | 'site'>) {
  /** Whether a poll's voting has closed: a past poll, or today's after the close time. */
  const closed = (poll: { status: string; liveDate: string }) => {
    if (poll.status === 'past') return true;
    if (poll.status !== 'active') return false;
    const day = votingDayAt(clock.now(), site);
    return !day.votingOpen || poll.liveDate < day.date;
  };

  return {
    /** The note as typed, for the editor, and whether one may be written yet. */
    async forEditor(
      pollId: number,
    ): Promise<{ body: string; updatedAt: string | null; writable: boolean } | undefined> {
      const poll = await findPollById(db, pollId);
      if (!poll) return undefined;
      const note = await findNote(db, pollId);
      return { body: note?.body ?? '', updatedAt: note?.updatedAt ?? null, writable: closed(poll) };
    },

    /** The published note of a poll, rendered; null without one. */
    async published(pollId: number): Promise<PollNote | null> {
      const note = await findNote(db, pollId);
      return note ? toPollNote(note) : null;
    },

    /**
     * Writes (or, with an empty body, removes) a closed poll's note, with its audit row, in one
     * transaction; writeNote reindexes the poll's note for search in it too.
     */
    async save(
      { pollId, body, staffId }: { pollId: number; body: string; staffId: number | null },
      audit: AuditWrite,
    ): Promise<NoteSaveOutcome> {
      return db.transaction().execute(async (trx) => {
        const poll = await findPollById(trx, pollId);
        if (!poll) return 'not-found';
        if (!closed(poll)) return 'not-closed';
        const before = await findNote(trx, pollId);
        if ((before?.body ?? '') === body) return 'unchanged';
        await writeNote(trx, { pollId, body, at: clock.now(), by: staffId });
        // Open data and the feed carry notes: they are built again.
        await markPastPollsChanged(trx);
        await audit(trx);
        return body === '' ? 'removed' : 'saved';
      });
    },
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
