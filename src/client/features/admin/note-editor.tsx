/**
 * "What we learned": an editor's note on a closed poll, under its results on the poll page, in
 * its link preview, the open data, the feed and the weekly digest. Markdown: *emphasis*,
 * **strong**, [links](https://…); no HTML. Blank and saved removes it.
 */
import { useState } from 'react';
import { NOTE_MAX_LENGTH } from '../../../shared/limits.js';
import type { AdminPoll } from '../../../shared/api.js';
import { useNote, useSaveNote } from '../../api/admin/notes-and-digest.js';
import { toast } from '../../components/ui/toast.js';
import { errorMessage } from '../../lib/api-client.js';
import { siteClock } from '../../lib/site-config.js';
import { localDateAt } from '../../../shared/time.js';
import { formatLocalDate } from '../../../shared/time-labels.js';

export function NoteEditor({ poll }: { poll: AdminPoll }) {
  const { data } = useNote(poll.id);
  if (!data) return null;
  return (
    <NoteForm
      key={data.updatedAt ?? 'none'}
      pollId={poll.id}
      initial={data.body}
      writable={data.writable}
      updatedAt={data.updatedAt}
    />
  );
}

function NoteForm({
  pollId,
  initial,
  writable,
  updatedAt,
}: {
  pollId: number;
  initial: string;
  writable: boolean;
  updatedAt: string | null;
}) {
  const [body, setBody] = useState(initial);
  const save = useSaveNote(pollId);
  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    save.mutate(body, {
      onSuccess: ({ message }) => toast({ title: message }),
      onError: (error) =>
        toast({ title: 'Note not saved', description: errorMessage(error, 'Please try again.'), variant: 'failure' }),
    });
  }
  return (
    <form className="admin-note" onSubmit={submit}>
      <h3>What we learned</h3>
      {writable ? (
        <>
          <label className="field__label" htmlFor={`note-${pollId}`}>
            A short note for readers, shown under the results. *Emphasis*, **bold** and [links](https://…); no HTML.
          </label>
          <textarea
            className="input"
            id={`note-${pollId}`}
            rows={5}
            maxLength={NOTE_MAX_LENGTH}
            value={body}
            onChange={(event) => setBody(event.target.value)}
          />
          <p className="admin-note__meta">
            {body.length} / {NOTE_MAX_LENGTH}
            {updatedAt && ` · last changed ${formatLocalDate(localDateAt(new Date(updatedAt), siteClock.timeZone))}`}
          </p>
          <button type="submit" className="button button--secondary" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save note'}
          </button>
        </>
      ) : (
        <p>A note can be written once voting on the poll has closed.</p>
      )}
    </form>
  );
}
