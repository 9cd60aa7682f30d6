/**
 * "Another run of": on the poll form, staff pick a series (or any past poll) and the form asks
 * it again: its newest past run's number goes in "Asked before", and an empty form takes that
 * run's question and options.
 */
import { useId } from 'react';
import type { AdminPoll } from '../../../shared/api.js';
import { useAdminPolls } from '../../api/admin/get-admin-polls.js';
import { useAdminSeries } from '../../api/admin/series.js';

export function SeriesPicker({ askedBefore, onPick }: { askedBefore: string; onPick: (run: AdminPoll) => void }) {
  const id = useId();
  const series = useAdminSeries();
  const polls = useAdminPolls();
  const past = new Map((polls.data ?? []).filter((p) => p.status === 'past').map((p) => [p.pollNumber, p]));
  const choices = (series.data ?? []).flatMap((item) => {
    const newest = item.runs.filter((run) => past.has(run.pollNumber)).at(-1);
    return newest ? [{ name: item.name, pollNumber: newest.pollNumber }] : [];
  });
  if (choices.length === 0) return null;
  const picked = choices.find((choice) => String(choice.pollNumber) === askedBefore.trim());
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-series`}>
        Another run of a series (optional)
      </label>
      <select
        id={`${id}-series`}
        className="input"
        aria-describedby={`${id}-series-help`}
        value={picked ? String(picked.pollNumber) : ''}
        onChange={(e) => {
          const run = past.get(Number(e.target.value));
          if (run) onPick(run);
        }}
      >
        <option value="">Not part of a series</option>
        {choices.map((choice) => (
          <option key={choice.pollNumber} value={choice.pollNumber}>
            {choice.name} (last run: poll #{choice.pollNumber})
          </option>
        ))}
      </select>
      <p id={`${id}-series-help`} className="admin-form__help">
        Asks the series’ question again: its tracker gains this poll as a new run.
      </p>
    </div>
  );
}
