/**
 * A past poll's staff note, "What we learned", under its results. The note's HTML comes from
 * the server's renderer (src/server/notes/note-markdown.ts: a safe Markdown subset, no raw
 * HTML, links only to http(s), mailto and the site), so it is put in as it is.
 */
import type { PollNote } from '../../../shared/api.js';
import { localDateAt } from '../../../shared/time.js';
import { formatLocalDate } from '../../../shared/time-labels.js';
import { siteClock } from '../../lib/site-config.js';
import './staff-note.css';

export function StaffNote({ note }: { note: PollNote }) {
  const day = localDateAt(new Date(note.updatedAt), siteClock.timeZone);
  return (
    <section className="card staff-note" aria-labelledby="staff-note-title">
      <h2 id="staff-note-title" className="staff-note__title">
        What we learned
      </h2>
      <div className="staff-note__body" dangerouslySetInnerHTML={{ __html: note.html }} />
      <p className="staff-note__updated">
        Last changed <time dateTime={note.updatedAt}>{formatLocalDate(day)}</time>
      </p>
    </section>
  );
}
