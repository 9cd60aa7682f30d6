/** Creating a poll, or editing one: question, description, go-live date, 2 to 6 options. */
import { useEffect, useId, useState } from 'react';
import type { AdminPoll } from '../../../shared/api.js';
import { DESCRIPTION_MAX_LENGTH, QUESTION_MAX_LENGTH } from '../../../shared/limits.js';
import { localDateAt } from '../../../shared/time.js';
import { useCreatePoll, useUpdatePoll, type PollInput } from '../../api/admin/poll-changes.js';
import { emptyOptions, OptionsEditor } from '../../components/forms/options-editor.js';
import { toastProblem, type ProblemTitles } from '../../components/forms/problem-toast.js';
import { SubmitButton } from '../../components/forms/submit-button.js';
import { TextAreaField } from '../../components/forms/text-area-field.js';
import { toast } from '../../components/ui/toast.js';
import { checkForm, preloadSchemas } from '../../lib/form-check.js';
import { siteClock } from '../../lib/site-config.js';
import { useAdminFailure } from '../../components/admin/use-admin-failure.js';
import { SeriesPicker } from './series-picker.js';
import { TopicChoices } from './topic-choices.js';

export interface PollFormValues {
  question: string;
  description: string;
  options: string[];
  liveDate: string;
  /** The number of an earlier poll this one asks again, as typed; blank when it asks nothing again. */
  askedBefore: string;
  /** The poll's topics, by slug (issue 39). */
  topics: string[];
}

export const todayInSiteZone = () => localDateAt(new Date(), siteClock.timeZone);

/** The spec's titles for what it names (section 5); any other problem reads as the server's refusal does. */
const TITLES: ProblemTitles = {
  question: { too_small: 'Required fields missing' },
  options: { too_small: 'Need more options' },
};

export const emptyPollForm = (): PollFormValues => ({
  question: '',
  description: '',
  options: emptyOptions(),
  liveDate: todayInSiteZone(),
  askedBefore: '',
  topics: [],
});

export function PollForm({
  editing,
  initial,
  onDone,
}: {
  editing: AdminPoll | null;
  initial: PollFormValues;
  onDone: () => void;
}) {
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
  const failedTitle = editing ? 'Failed to update poll' : 'Failed to create poll';
  useEffect(preloadSchemas, []);

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    const askedBefore = values.askedBefore.trim();
    void check({ ...values, askedBefore: askedBefore === '' ? null : askedBefore });
  }

  /** Checks with the server's schema, then saves; also what "Try again" calls, with the same values. */
  async function check(poll: PollInput) {
    let checked;
    try {
      checked = await checkForm((schemas) => schemas.pollDraft, poll);
    } catch (error) {
      failed(failedTitle, error, { retry: () => void check(poll) });
      return;
    }
    if (checked.ok) save(checked.data);
    else toastProblem(checked.problem, TITLES, failedTitle);
  }

  /** Creates or updates; also what "Try again" calls, with the same poll. */
  function save(poll: PollInput) {
    const done = ({ message }: { message: string }) => {
      toast({ title: message });
      onDone();
    };
    const retry = () => save(poll);
    if (editing)
      update.mutate(
        { id: editing.id, ...poll },
        { onSuccess: done, onError: (e) => failed(failedTitle, e, { retry }) },
      );
    else create.mutate(poll, { onSuccess: done, onError: (e) => failed(failedTitle, e, { retry }) });
  }

  return (
    <form className="card admin-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <div className="admin-form__head">
        <h2 id={`${id}-title`}>{editing ? `Edit Poll #${editing.pollNumber}` : 'Create a New Poll'}</h2>
        {editing && (
          <button
            type="button"
            className="button button--quiet admin-form__close"
            aria-label="Cancel editing"
            onClick={onDone}
          >
            ×
          </button>
        )}
      </div>
      <TextAreaField
        label={
          <>
            Question <span aria-hidden="true">*</span>
          </>
        }
        rows={3}
        required
        maxLength={QUESTION_MAX_LENGTH}
        value={values.question}
        onChange={(question) => set({ question })}
      />
      <TextAreaField
        label="Description (optional)"
        rows={2}
        maxLength={DESCRIPTION_MAX_LENGTH}
        value={values.description}
        onChange={(description) => set({ description })}
      />
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
      <OptionsEditor options={values.options} onChange={(options) => set({ options })} />
      <SeriesPicker
        askedBefore={values.askedBefore}
        onPick={(run) =>
          set({
            askedBefore: String(run.pollNumber),
            ...(values.question.trim() === '' ? { question: run.question } : {}),
            ...(values.options.every((option) => option.trim() === '') ? { options: [...run.options] } : {}),
          })
        }
      />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-asked-before`}>
          Asked before as poll # (optional)
        </label>
        <input
          id={`${id}-asked-before`}
          className="input admin-form__number"
          inputMode="numeric"
          autoComplete="off"
          aria-describedby={`${id}-asked-before-help`}
          value={values.askedBefore}
          onChange={(e) => set({ askedBefore: e.target.value })}
        />
        <p id={`${id}-asked-before-help`} className="admin-form__help">
          The number of an earlier past poll with the same options. Visitors then see how the answers changed since.
        </p>
      </div>
      <TopicChoices chosen={values.topics} onChange={(topics) => set({ topics })} />
      <div className="admin-form__actions">
        {editing && (
          <button type="button" className="button button--quiet" onClick={onDone}>
            Cancel
          </button>
        )}
        <SubmitButton sending={pending} sendingLabel="Saving…">
          {editing ? 'Save Changes' : 'Create Poll'}
        </SubmitButton>
      </div>
    </form>
  );
}
