/**
 * The invitation to describe oneself, inline where the breakdowns are (never a second modal
 * after the subscribe invitation): four chip groups, one answer each, all optional; "Save" and
 * "Not now", which hides it on this browser. A visitor who has answered sees their answers
 * instead, with "Change".
 */
import { useId, useRef, useState } from 'react';
import {
  EMPTY_PROFILE,
  groupLabel,
  hasAnyAnswer,
  PROFILE_DIMENSIONS,
  type Profile,
  type ProfileDimension,
} from '../../../shared/profile.js';
import { useProfile } from '../../api/get-profile.js';
import { useSaveProfile } from '../../api/save-profile.js';
import { ChoiceGroup, type Choice } from '../../components/forms/choice-group.js';
import { SubmitButton } from '../../components/forms/submit-button.js';
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

type Stage = 'asking' | 'dismissed' | 'saved' | 'answered' | 'changing';

/** The chip that clears an answer, when changing them. */
const NOT_SAID = 'not-said';

/** The answer held, as a choice, when it is one the form no longer asks (a retired band). */
function retiredChoice(dimension: ProfileDimension, value: string | null): Choice<string>[] {
  const asked: readonly { id: string }[] = PROFILE_DIMENSIONS.find((d) => d.dimension === dimension)?.asked ?? [];
  if (value === null || asked.some((group) => group.id === value)) return [];
  return [{ value, label: groupLabel(dimension, value) ?? value }];
}

export function ProfileInvitation({ intro, thanks }: ProfileInvitationProps) {
  const profile = useProfile();
  const [stage, setStage] = useState<Stage>(() => (storage.profileInvitationDismissed() ? 'dismissed' : 'asking'));
  const [saved, setSaved] = useState(thanks);
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
        {saved}
      </p>
    );
  }
  if (stage === 'changing') {
    return (
      <ProfileForm
        initial={profile.data}
        onSaved={() => {
          setSaved('Your answers are saved.');
          moveTo('saved');
        }}
        onLeave={() => moveTo('answered')}
      />
    );
  }
  if (hasAnyAnswer(profile.data)) {
    const given = PROFILE_DIMENSIONS.flatMap(({ dimension }) => {
      const value = profile.data[dimension];
      return value === null ? [] : [groupLabel(dimension, value) ?? value];
    });
    return (
      <p className="profile-invitation__later">
        You told us: {given.join(', ')}.{' '}
        <button
          type="button"
          className="button button--quiet"
          aria-label="Change your answers"
          ref={takeFocus}
          onClick={() => moveTo('changing')}
        >
          Change
        </button>
      </p>
    );
  }
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
    <ProfileForm
      intro={intro}
      initial={EMPTY_PROFILE}
      onSaved={() => moveTo('saved')}
      onLeave={() => {
        storage.setProfileInvitationDismissed();
        moveTo('dismissed');
      }}
    />
  );
}

/**
 * The four questions. Asking (with `intro`): nothing is chosen, at least one answer is needed,
 * and only the answers chosen are sent; "Not now" leaves. Changing (no intro): the answers
 * given are chosen, "Prefer not to say" clears one, all four are sent; "Cancel" leaves.
 */
function ProfileForm({
  intro,
  initial,
  onSaved,
  onLeave,
}: {
  intro?: string;
  initial: Profile;
  onSaved: () => void;
  onLeave: () => void;
}) {
  const id = useId();
  const changing = intro === undefined;
  const [answers, setAnswers] = useState<Profile>(initial);
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
    if (changing) {
      send(answers);
      return;
    }
    // Only what was answered: a question left alone is not sent, rather than sent as cleared.
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
        {changing ? 'Your answers' : 'Tell us about you'}
      </h3>
      <p id={`${id}-intro`} className="profile-invitation__intro">
        {changing
          ? 'Change or clear any answer. A change counts from your next vote (and for today’s vote while voting is open); past polls keep the answers you had then.'
          : `${intro} Four quick answers, each optional. No name, no school: `}
        {!changing && (
          <>
            <Link to="/privacy">how we keep it anonymous</Link>.
          </>
        )}
      </p>
      {PROFILE_DIMENSIONS.map(({ dimension, question, asked }) => (
        <ChoiceGroup
          key={dimension}
          legend={question}
          look="chips"
          choices={[
            ...asked.map(({ id: value, label }): Choice<string> => ({ value, label })),
            // An answer given with a band no longer asked (issue 38) stays shown until changed.
            ...retiredChoice(dimension, answers[dimension]),
            ...(changing ? [{ value: NOT_SAID, label: 'Prefer not to say' }] : []),
          ]}
          value={answers[dimension] ?? (changing ? NOT_SAID : null)}
          onChange={(value) => {
            setAnswers((current) => ({ ...current, [dimension]: value === NOT_SAID ? null : value }));
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
        <SubmitButton sending={save.isPending} sendingLabel="Saving…">
          Save
        </SubmitButton>
        <button type="button" className="button button--quiet" onClick={onLeave}>
          {changing ? 'Cancel' : 'Not now'}
        </button>
      </div>
    </form>
  );
}
