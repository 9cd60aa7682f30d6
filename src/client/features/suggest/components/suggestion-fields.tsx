/**
 * The suggestion form with its introduction, and on its own tab its heading: loaded when it
 * is first shown (the tab, or the folded section opened), so today's page does not carry it
 * before anyone asks for it.
 */
import { useEffect, useId, useState } from 'react';
import { NAME_MAX_LENGTH, QUESTION_MAX_LENGTH } from '../../../../shared/limits.js';
import { useSubmitSuggestion, type NewSuggestion } from '../../../api/submit-suggestion.js';
import { EmailField } from '../../../components/forms/email-field.js';
import { SelectField } from '../../../components/forms/select-field.js';
import { useTopics } from '../../../api/get-topics.js';
import { emptyOptions, OptionsEditor } from '../../../components/forms/options-editor.js';
import { toastProblem, type ProblemTitles } from '../../../components/forms/problem-toast.js';
import { SubmitButton } from '../../../components/forms/submit-button.js';
import { TextAreaField } from '../../../components/forms/text-area-field.js';
import { toast, tryAgain } from '../../../components/ui/toast.js';
import { errorMessage, isRetryable } from '../../../lib/api-client.js';
import { checkForm, preloadSchemas } from '../../../lib/form-check.js';

/** The spec's titles for what it names (section 5); any other problem reads as the server's refusal does. */
const TITLES: ProblemTitles = {
  question: { too_small: 'Question required' },
  options: { too_small: 'Need more options' },
};
const FAILED = 'Oops! Something went wrong';

const INTRO = 'Got a hot take colleagues should weigh in on? Our team reviews every suggestion.';

/** On its own tab (`page`), a section with its heading; under today's poll, what the fold opens to. */
export default function Suggestion({ page }: { page: boolean }) {
  if (!page) {
    return (
      <>
        <p className="suggest__intro">{INTRO}</p>
        <SuggestionForm />
      </>
    );
  }
  return (
    <section className="card suggest" aria-labelledby="suggest-heading">
      <h1 id="suggest-heading">Suggest a Poll</h1>
      <p className="suggest__intro">{INTRO}</p>
      <SuggestionForm />
    </section>
  );
}

function SuggestionForm() {
  const submit = useSubmitSuggestion();
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState(emptyOptions);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [topic, setTopic] = useState('');
  const topics = useTopics();
  const id = useId();
  useEffect(preloadSchemas, []);

  /** Checks with the server's schema, then sends; also what "Try again" calls, with the same values. */
  async function send(suggestion: NewSuggestion) {
    let checked;
    try {
      checked = await checkForm((schemas) => schemas.suggestionRequest, suggestion);
    } catch (error) {
      failed(error, suggestion);
      return;
    }
    if (!checked.ok) {
      toastProblem(checked.problem, TITLES, FAILED);
      return;
    }
    submit.mutate(checked.data, {
      onSuccess: () => {
        toast({ title: 'Suggestion submitted!', description: 'Thank you! Our team reviews every suggestion.' });
        setQuestion('');
        setOptions(emptyOptions());
        setName('');
        setEmail('');
        setTopic('');
      },
      onError: (error) => failed(error, suggestion),
    });
  }

  function failed(error: unknown, suggestion: NewSuggestion) {
    toast({
      title: FAILED,
      description: errorMessage(error, 'Failed to submit suggestion. Please try again.'),
      variant: 'failure',
      action: isRetryable(error)
        ? tryAgain('Press Submit Suggestion again to send it.', () => void send(suggestion))
        : undefined,
    });
  }

  function submitForm(event: { preventDefault: () => void }) {
    event.preventDefault();
    // A blank e-mail is left out: the schema takes only an empty one that way.
    void send({ question, options, suggestedBy: name, email: email.trim(), topic });
  }

  return (
    <form className="suggest__form" onSubmit={submitForm} noValidate>
      <TextAreaField
        label="Your poll question"
        className="suggest__question"
        rows={3}
        maxLength={QUESTION_MAX_LENGTH}
        value={question}
        onChange={setQuestion}
      />
      <OptionsEditor options={options} onChange={setOptions} addClassName="suggest__add" />
      <div className="suggest__optional">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-name`}>
            Your name (optional)
          </label>
          <input
            id={`${id}-name`}
            className="input"
            autoComplete="name"
            maxLength={NAME_MAX_LENGTH}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <EmailField label="Your email (optional)" value={email} onChange={setEmail} />
        {topics.data && topics.data.length > 0 && (
          <SelectField
            label="Topic (optional)"
            value={topic}
            onChange={setTopic}
            options={[['', 'No topic'], ...topics.data.map((t) => [t.slug, t.name] as const)]}
          />
        )}
      </div>
      <SubmitButton sending={submit.isPending} sendingLabel="Submitting...">
        Submit Suggestion
      </SubmitButton>
    </form>
  );
}
