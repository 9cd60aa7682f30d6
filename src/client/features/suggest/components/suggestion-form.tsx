/**
 * "Suggest a poll": a question, 2 to 6 options, and optionally a name and an e-mail. Folded
 * away under today's poll; open on its own tab.
 */
import * as Collapsible from '@radix-ui/react-collapsible';
import { useId, useState } from 'react';
import { NAME_MAX_LENGTH, OPTIONS_MAX, OPTIONS_MIN, OPTION_MAX_LENGTH, QUESTION_MAX_LENGTH } from '../../../../shared/limits.js';
import { useSubmitSuggestion, type NewSuggestion } from '../../../api/submit-suggestion.js';
import { toast, tryAgain } from '../../../components/ui/toast.js';
import { errorMessage, isRetryable } from '../../../lib/api-client.js';
import './suggest.css';

export function SuggestionSection({ collapsed }: { collapsed: boolean }) {
  const [open, setOpen] = useState(false);
  if (!collapsed) {
    return (
      <section className="card suggest" aria-labelledby="suggest-heading">
        <h1 id="suggest-heading">Suggest a Poll</h1>
        <p className="suggest__intro">Got a hot take colleagues should weigh in on? Our team reviews every suggestion.</p>
        <SuggestionForm />
      </section>
    );
  }
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="card suggest">
      <h2 className="suggest__collapsed-heading">
        <Collapsible.Trigger className="suggest__trigger">
          Suggest a Poll
          <span aria-hidden="true" className="suggest__chevron">
            ▾
          </span>
        </Collapsible.Trigger>
      </h2>
      <Collapsible.Content>
        <p className="suggest__intro">Got a hot take colleagues should weigh in on? Our team reviews every suggestion.</p>
        <SuggestionForm />
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

function SuggestionForm() {
  const submit = useSubmitSuggestion();
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState<string[]>(['', '']);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const id = useId();

  function setOption(index: number, value: string) {
    setOptions((current) => current.map((option, i) => (i === index ? value : option)));
  }

  function send(event: { preventDefault: () => void }) {
    event.preventDefault();
    if (!question.trim()) {
      toast({ title: 'Question required', description: 'Please enter a poll question.', variant: 'validation' });
      return;
    }
    const filled = options.map((o) => o.trim()).filter(Boolean);
    if (filled.length < OPTIONS_MIN) {
      toast({ title: 'Need more options', description: 'Please provide at least 2 poll options.', variant: 'validation' });
      return;
    }
    deliver({ question: question.trim(), options: filled, suggestedBy: name.trim(), email: email.trim().toLowerCase() });
  }

  function deliver(suggestion: NewSuggestion) {
    submit.mutate(suggestion, {
      onSuccess: () => {
        toast({ title: 'Suggestion submitted!', description: 'Thank you! Our team reviews every suggestion.' });
        setQuestion('');
        setOptions(['', '']);
        setName('');
        setEmail('');
      },
      onError: (error) =>
        toast({
          title: 'Oops! Something went wrong',
          description: errorMessage(error, 'Failed to submit suggestion. Please try again.'),
          variant: 'failure',
          action: isRetryable(error) ? tryAgain('Press Submit Suggestion again to send it.', () => deliver(suggestion)) : undefined,
        }),
    });
  }

  return (
    <form className="suggest__form" onSubmit={send} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-question`}>
          Your poll question
        </label>
        <textarea
          id={`${id}-question`}
          className="input suggest__question"
          rows={3}
          maxLength={QUESTION_MAX_LENGTH}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
        />
      </div>
      <fieldset className="suggest__options">
        <legend className="field__label">Answer options (2 to 6)</legend>
        {options.map((option, index) => (
          <div key={index} className="suggest__option">
            <input
              className="input"
              aria-label={`Option ${index + 1}`}
              placeholder={`Option ${index + 1}`}
              maxLength={OPTION_MAX_LENGTH}
              value={option}
              onChange={(e) => setOption(index, e.target.value)}
            />
            {options.length > OPTIONS_MIN && (
              <button
                type="button"
                className="button button--quiet suggest__remove"
                aria-label={`Remove option ${index + 1}`}
                onClick={() => setOptions((current) => current.filter((_, i) => i !== index))}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {options.length < OPTIONS_MAX && (
          <button type="button" className="button button--quiet suggest__add" onClick={() => setOptions((current) => [...current, ''])}>
            + Add option
          </button>
        )}
      </fieldset>
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
        <div className="field">
          <label className="field__label" htmlFor={`${id}-email`}>
            Your email (optional)
          </label>
          <input
            id={`${id}-email`}
            className="input"
            type="email"
            inputMode="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
      </div>
      <button type="submit" className="button button--primary" disabled={submit.isPending}>
        {submit.isPending ? 'Submitting...' : 'Submit Suggestion'}
      </button>
    </form>
  );
}
