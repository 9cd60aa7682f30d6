/**
 * The invitation to describe oneself, inline where the breakdowns are (never a second modal
 * after the subscribe invitation): four chip groups, one answer each, all optional; "Save" and
 * "Not now", which hides it on this browser. It shows only to a visitor with no answers yet.
 */
import { useId, useRef, useState } from 'react';
import { EMPTY_PROFILE, hasAnyAnswer, PROFILE_DIMENSIONS, type Profile } from '../../../shared/profile.js';
import { useProfile } from '../../api/get-profile.js';
import { useSaveProfile } from '../../api/save-profile.js';
import { ChoiceGroup } from '../../components/forms/choice-group.js';
import { toast, tryAgain } from '../../components/ui/toast.js';
import { errorMessage, isRetryable } from '../../lib/api-client.js';
import { Link } from '../../lib/router.js';
import { storage } from '../../lib/storage.js';
import './profile.css';

export interface ProfileInvitationProps {
  /** Why to answer, where it is shown: "so your vote counts in them", say. */
  intro: string;
  /** What the thanks says once the answers are saved. */
  thanks: string;
}

type Stage = 'asking' | 'dismissed' | 'saved';

export function ProfileInvitation({ intro, thanks }: ProfileInvitationProps) {
  const profile = useProfile();
  const [stage, setStage] = useState<Stage>(() => (storage.profileInvitationDismissed() ? 'dismissed' : 'asking'));
  // When the form goes, the keyboard goes to what replaces it, not back to the top of the page.
  const moveFocus = useRef(false);
  const takeFocus = (node: HTMLElement | null) => {
    if (node && moveFocus.current) {
      moveFocus.current = false;
      node.focus();
    }
  };
  const moveTo = (next: Stage) => {
    moveFocus.current = true;
    setStage(next);
  };

  // Unknown (loading, or the call failed): ask nothing rather than ask someone who answered.
  if (!profile.data) return null;
  if (stage === 'saved') {
    return (
      <p className="profile-invitation__thanks" role="status" tabIndex={-1} ref={takeFocus}>
        {thanks}
      </p>
    );
  }
  if (hasAnyAnswer(profile.data)) return null;
  if (stage === 'dismissed') {
    return (
      <p className="profile-invitation__later">
        Want your votes in the breakdowns?{' '}
        <button type="button" className="button button--quiet" ref={takeFocus} onClick={() => moveTo('asking')}>
          Tell us about you
        </button>
      </p>
    );
  }
  return (
    <InvitationForm
      intro={intro}
      onSaved={() => moveTo('saved')}
      onNotNow={() => {
        storage.setProfileInvitationDismissed();
        moveTo('dismissed');
      }}
    />
  );
}

function InvitationForm({ intro, onSaved, onNotNow }: { intro: string; onSaved: () => void; onNotNow: () => void }) {
  const id = useId();
  const [answers, setAnswers] = useState<Profile>(EMPTY_PROFILE);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveProfile();

  function send(update: Partial<Profile>) {
    save.mutate(update, {
      onSuccess: onSaved,
      onError: (error) =>
        toast({
          title: 'Failed to save your answers',
          description: errorMessage(error, 'Please try again.'),
          variant: 'failure',
          action: isRetryable(error)
            ? tryAgain('Press Save again to send your answers.', () => send(update))
            : undefined,
        }),
    });
  }

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    // Only what was answered: nothing chosen stays as it was, rather than being cleared.
    const update = Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== null));
    if (Object.keys(update).length === 0) {
      setProblem('Choose at least one answer, or press Not now.');
      return;
    }
    setProblem(null);
    send(update);
  }

  return (
    <form
      className="profile-invitation"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      onSubmit={submit}
      noValidate
    >
      <h3 id={`${id}-title`} className="profile-invitation__title">
        Tell us about you
      </h3>
      <p id={`${id}-intro`} className="profile-invitation__intro">
        {intro} Four quick answers, each optional. No name, no school:{' '}
        <Link to="/privacy">how we keep it anonymous</Link>.
      </p>
      {PROFILE_DIMENSIONS.map(({ dimension, question, groups }) => (
        <ChoiceGroup
          key={dimension}
          legend={question}
          look="chips"
          choices={groups.map(({ id: value, label }) => ({ value, label }))}
          value={answers[dimension]}
          onChange={(value) => {
            setAnswers((current) => ({ ...current, [dimension]: value }));
            setProblem(null);
          }}
        />
      ))}
      {problem && (
        <p className="profile-invitation__problem" role="alert">
          {problem}
        </p>
      )}
      <div className="profile-invitation__actions">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button button--quiet" onClick={onNotNow}>
          Not now
        </button>
      </div>
    </form>
  );
}
