/** Creating a poll, or editing one: question, description, go-live date, 2 to 6 options. */
import { useId, useState } from 'react';
import type { AdminPoll } from '../../../shared/api.js';
import { DESCRIPTION_MAX_LENGTH, OPTIONS_MAX, OPTIONS_MIN, OPTION_MAX_LENGTH, QUESTION_MAX_LENGTH } from '../../../shared/limits.js';
import { localDateAt } from '../../../shared/time.js';
import { useCreatePoll, useUpdatePoll, type PollInput } from '../../api/admin/poll-changes.js';
import { toast } from '../../components/ui/toast.js';
import { siteClock } from '../../lib/site-config.js';
import { useAdminFailure } from './use-admin-failure.js';

export interface PollFormValues {
  question: string;
  description: string;
  options: string[];
  liveDate: string;
}

export const todayInSiteZone = () => localDateAt(new Date(), siteClock.timeZone);

export const emptyPollForm = (): PollFormValues => ({ question: '', description: '', options: ['', ''], liveDate: todayInSiteZone() });

export function PollForm({ editing, initial, onDone }: { editing: AdminPoll | null; initial: PollFormValues; onDone: () => void }) {
  const [values, setValues] = useState(initial);
  const create = useCreatePoll();
  const update = useUpdatePoll();
  const failed = useAdminFailure();
  const id = useId();
  const today = todayInSiteZone();
  // A poll that has gone live keeps its date; only scheduled (and missed) ones move.
  const dateFixed = editing !== null && editing.status !== 'scheduled' && editing.status !== 'missed';
  const pending = create.isPending || update.isPending;

  const set = (changes: Partial<PollFormValues>) => setValues((current) => ({ ...current, ...changes }));
  const setOption = (index: number, value: string) => set({ options: values.options.map((o, i) => (i === index ? value : o)) });

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    const question = values.question.trim();
    if (!question) {
      toast({ title: 'Required fields missing', description: 'Please fill in the question.', variant: 'validation' });
      return;
    }
    const options = values.options.map((o) => o.trim()).filter(Boolean);
    if (options.length < OPTIONS_MIN) {
      toast({ title: 'Need more options', description: 'Please provide at least 2 poll options.', variant: 'validation' });
      return;
    }
    save({ question, description: values.description.trim(), options, liveDate: values.liveDate });
  }

  /** Creates or updates; also what "Try again" calls, with the same poll. */
  function save(poll: PollInput) {
    const done = ({ message }: { message: string }) => {
      toast({ title: message });
      onDone();
    };
    const retry = () => save(poll);
    if (editing) update.mutate({ id: editing.id, ...poll }, { onSuccess: done, onError: (e) => failed('Failed to update poll', e, { retry }) });
    else create.mutate(poll, { onSuccess: done, onError: (e) => failed('Failed to create poll', e, { retry }) });
  }

  return (
    <form className="card admin-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <div className="admin-form__head">
        <h2 id={`${id}-title`}>{editing ? `Edit Poll #${editing.pollNumber}` : 'Create a New Poll'}</h2>
        {editing && (
          <button type="button" className="button button--quiet admin-form__close" aria-label="Cancel editing" onClick={onDone}>
            ×
          </button>
        )}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-question`}>
          Question <span aria-hidden="true">*</span>
        </label>
        <textarea
          id={`${id}-question`}
          className="input"
          rows={3}
          required
          maxLength={QUESTION_MAX_LENGTH}
          value={values.question}
          onChange={(e) => set({ question: e.target.value })}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-description`}>
          Description (optional)
        </label>
        <textarea
          id={`${id}-description`}
          className="input"
          rows={2}
          maxLength={DESCRIPTION_MAX_LENGTH}
          value={values.description}
          onChange={(e) => set({ description: e.target.value })}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-date`}>
          Go-live date <span aria-hidden="true">*</span>
        </label>
        <input
          id={`${id}-date`}
          className="input admin-form__date"
          type="date"
          required
          min={dateFixed ? undefined : today}
          disabled={dateFixed}
          aria-describedby={`${id}-date-help`}
          value={values.liveDate}
          onChange={(e) => set({ liveDate: e.target.value })}
        />
        <p id={`${id}-date-help`} className="admin-form__help">
          {dateFixed
            ? 'This poll has gone live, so its date stays as it is.'
            : values.liveDate < today
              ? 'This date has passed. Choose today to put the poll live now, or a later date.'
              : values.liveDate === today
              ? 'This poll goes live immediately.'
              : 'Polls become active at midnight on the selected date.'}
        </p>
      </div>
      <fieldset className="admin-form__options">
        <legend className="field__label">Answer options (2 to 6)</legend>
        {values.options.map((option, index) => (
          <div key={index} className="admin-form__option">
            <input
              className="input"
              aria-label={`Option ${index + 1}`}
              placeholder={`Option ${index + 1}`}
              maxLength={OPTION_MAX_LENGTH}
              value={option}
              onChange={(e) => setOption(index, e.target.value)}
            />
            {values.options.length > OPTIONS_MIN && (
              <button
                type="button"
                className="button button--quiet admin-form__remove"
                aria-label={`Remove option ${index + 1}`}
                onClick={() => set({ options: values.options.filter((_, i) => i !== index) })}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {values.options.length < OPTIONS_MAX && (
          <button type="button" className="button button--quiet" onClick={() => set({ options: [...values.options, ''] })}>
            + Add option
          </button>
        )}
      </fieldset>
      <div className="admin-form__actions">
        {editing && (
          <button type="button" className="button button--quiet" onClick={onDone}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Saving…' : editing ? 'Save Changes' : 'Create Poll'}
        </button>
      </div>
    </form>
  );
}
