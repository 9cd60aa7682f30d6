/**
 * "How teachers like you voted": a poll's results for everyone, or by role, grade level, region
 * or experience, as voters described themselves. The server lists only groups of at least
 * MIN_GROUP_SIZE votes and counts the rest as withheld, withholding one more group where the
 * rest could be worked out by subtraction (breakdowns/breakdown.ts), and rounds every count
 * once, at the close (breakdowns/rounding.ts); this says how many, that the numbers are
 * rounded, any note of a review after the close, and that the sample chose itself. Shown after the close (today's) or on a past poll; loaded when shown.
 */
import { useId, useState, type ReactNode } from 'react';
import type { BreakdownDimension, Profile, ResultItem } from '../../../shared/api.js';
import { groupLabel, PROFILE_DIMENSIONS, type ProfileDimension } from '../../../shared/profile.js';
import { METHODS } from '../../../shared/methods.js';
import { formatCount } from '../../../shared/results.js';
import { useBreakdown } from '../../api/get-breakdown.js';
import { useProfile } from '../../api/get-profile.js';
import { votesText } from '../../components/chart/chart-labels.js';
import { SetAsideLink } from '../../components/chart/set-aside-note.js';
import { ResultBars } from '../../components/chart/result-bars.js';
import { LazyWeightedLine } from '../../components/chart/lazy-weighted-line.js';
import type { Weighted } from '../../../shared/weighting.js';
import { ChoiceGroup, type Choice } from '../../components/forms/choice-group.js';
import { ApiRequestError, isRetryable } from '../../lib/api-client.js';
import { OnceHydrated } from '../../lib/use-hydrated.js';
import './breakdown.css';

type View = 'everyone' | ProfileDimension;

const VIEWS: Choice<View>[] = [
  { value: 'everyone', label: 'Everyone' },
  ...PROFILE_DIMENSIONS.map(({ dimension, label }) => ({ value: dimension, label })),
];

export interface BreakdownSectionProps {
  pollId: number;
  /** The poll's results for everyone. */
  results: ResultItem[];
  totalVotes: number;
  /** Votes held or discounted after review: in no group, and said so. */
  setAsideVotes: number;
  /** The option this visitor chose, when known. */
  chosen?: number | null;
  /** Shown at the end of the section: the invitation to describe oneself, when it is due. */
  invitation?: ReactNode;
}

export default function BreakdownSection({
  pollId,
  results,
  totalVotes,
  setAsideVotes,
  chosen = null,
  invitation,
}: BreakdownSectionProps) {
  const id = useId();
  const [view, setView] = useState<View>('everyone');

  // The breakdown and the visitor's profile are read by the parts that show them, so their
  // arrival after the page starts redraws those parts alone.
  return (
    <section className="teachers-like-you" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="teachers-like-you__heading">
        How teachers like you voted
      </h2>
      <OnceHydrated>
        {(hydrated) => (
          <ChoiceGroup
            legend="Show the results of"
            hideLegend
            look="segments"
            choices={VIEWS}
            value={view}
            onChange={setView}
            disabled={!hydrated}
          />
        )}
      </OnceHydrated>
      <div className="teachers-like-you__view">
        {view === 'everyone' ? (
          <ul className="teachers-like-you__groups">
            <GroupBars label="Everyone" totalVotes={totalVotes} results={results} chosen={chosen} />
          </ul>
        ) : (
          <DimensionPanel pollId={pollId} view={view} chosen={chosen} />
        )}
      </div>
      <SampleNote pollId={pollId} totalVotes={totalVotes} setAsideVotes={setAsideVotes} />
      {invitation}
    </section>
  );
}

function DimensionPanel({ pollId, view, chosen }: { pollId: number; view: ProfileDimension; chosen: number | null }) {
  const breakdown = useBreakdown(pollId);
  const profile = useProfile().data ?? null;
  if (breakdown.isPending) return <p role="status">Loading the breakdown…</p>;
  if (breakdown.isError) {
    return (
      <div role="alert" className="teachers-like-you__failure">
        <p>
          {breakdown.error instanceof ApiRequestError
            ? breakdown.error.message
            : 'Failed to load the breakdown. Please try again.'}
        </p>
        {isRetryable(breakdown.error) && (
          <button type="button" className="button button--secondary" onClick={() => void breakdown.refetch()}>
            Try again
          </button>
        )}
      </div>
    );
  }
  return (
    <DimensionView
      dimension={breakdown.data.dimensions.find((d) => d.dimension === view)}
      minGroupSize={breakdown.data.minGroupSize}
      roundedTo={breakdown.data.roundedTo}
      correction={breakdown.data.correction}
      profile={profile}
      view={view}
      chosen={chosen}
    />
  );
}

/**
 * How many voters the breakdown counts, and how many votes were set aside (the poll's own
 * figures until the breakdown has been read).
 */
function SampleNote({
  pollId,
  totalVotes,
  setAsideVotes,
}: {
  pollId: number;
  totalVotes: number;
  setAsideVotes: number;
}) {
  const breakdown = useBreakdown(pollId).data;
  const sample = breakdown?.totalVotes ?? totalVotes;
  const setAside = breakdown?.setAsideVotes ?? setAsideVotes;
  return (
    <p className="teachers-like-you__sample">
      A self-selected sample of {formatCount(sample)} {sample === 1 ? 'teacher' : 'teachers'}; the bars are not
      weighted.
      {setAside > 0 && (
        <>
          {' '}
          <SetAsideLink setAsideVotes={setAside} />.
        </>
      )}
    </p>
  );
}

/** What the rounding of a breakdown's counts means, in a sentence. */
export const roundingLine = (roundedTo: number) =>
  `Numbers by group are rounded to a multiple of ${roundedTo}, at random, once, when voting closes, so they may not add up.`;

function DimensionView({
  dimension,
  minGroupSize,
  roundedTo,
  correction,
  profile,
  view,
  chosen,
}: {
  dimension: BreakdownDimension | undefined;
  minGroupSize: number;
  roundedTo: number;
  correction: string | null;
  profile: Profile | null;
  view: ProfileDimension;
  chosen: number | null;
}) {
  if (!dimension) return <p>This poll has no breakdown by {labelOf(view).toLowerCase()}.</p>;
  const mine = profile?.[view] ?? null;
  const mineShown = mine !== null && dimension.groups.some((group) => group.value === mine);
  const mineAlsoWithheld = mine !== null && dimension.alsoWithheld?.value === mine;
  return (
    <>
      {dimension.groups.length === 0 ? (
        <p>
          {dimension.alsoWithheld
            ? `No ${labelOf(view).toLowerCase()} group is shown on this poll.`
            : `No ${labelOf(view).toLowerCase()} group has ${minGroupSize} votes yet, so none is shown.`}
        </p>
      ) : (
        <ul className="teachers-like-you__groups">
          {dimension.groups.map((group) => (
            <GroupBars
              key={group.value}
              label={group.label}
              totalVotes={group.totalVotes}
              results={group.results}
              weighted={group.weighted}
              isMine={group.value === mine}
              chosen={group.value === mine ? chosen : null}
            />
          ))}
        </ul>
      )}
      {mine !== null && !mineShown && (
        <p className="teachers-like-you__note">
          {mineAlsoWithheld
            ? `Your group, ${groupLabel(view, mine) ?? mine}, is withheld on this poll so that the votes not shown can't be worked out from it.`
            : `Your group, ${groupLabel(view, mine) ?? mine}, has fewer than ${minGroupSize} votes on this poll, so it is not shown.`}
        </p>
      )}
      <p className="teachers-like-you__note">{hiddenVotesLine(dimension, minGroupSize)}</p>
      <p className="teachers-like-you__note">
        {roundingLine(roundedTo)} <a href={`${METHODS.path}#methods-groups`}>Why?</a>
      </p>
      {correction && <p className="teachers-like-you__note">{correction}</p>}
    </>
  );
}

function GroupBars({
  label,
  totalVotes,
  results,
  weighted,
  isMine = false,
  chosen,
}: {
  label: string;
  totalVotes: number;
  results: ResultItem[];
  weighted?: Weighted | undefined;
  isMine?: boolean;
  chosen: number | null;
}) {
  return (
    <li className={isMine ? 'teachers-like-you__group is-mine' : 'teachers-like-you__group'}>
      <h3 className="teachers-like-you__group-name">
        {label} <span className="teachers-like-you__n">· {votesText(totalVotes)}</span>
        {isMine && <span className="teachers-like-you__mine">Teachers like you</span>}
      </h3>
      <ResultBars results={results} chosen={chosen} compact />
      {/* A group's adjusted line when its gates let it show; a withheld one says nothing here. */}
      {weighted && !('withheld' in weighted) && (
        <LazyWeightedLine weighted={weighted} options={results.map((result) => result.option)} />
      )}
    </li>
  );
}

const labelOf = (dimension: ProfileDimension) =>
  PROFILE_DIMENSIONS.find((d) => d.dimension === dimension)?.label ?? dimension;

/**
 * The votes a dimension does not show, and why: groups too small to stay anonymous, no answer,
 * and a group withheld so that those cannot be worked out by subtraction.
 */
export function hiddenVotesLine(
  {
    withheldVotes,
    notSaidVotes,
    alsoWithheld,
  }: Pick<BreakdownDimension, 'withheldVotes' | 'notSaidVotes' | 'alsoWithheld'>,
  minGroupSize: number,
): string {
  // Every count is rounded (to 5): "about", and a 0 may stand for a few votes.
  const sentences = [];
  if (withheldVotes > 0) {
    sentences.push(
      `About ${votesText(withheldVotes)} withheld: groups of fewer than ${minGroupSize} are not shown, so nobody in them can be picked out.`,
    );
  }
  if (notSaidVotes > 0) sentences.push(`About ${votesText(notSaidVotes)} from teachers who did not say.`);
  if (alsoWithheld) {
    sentences.push(
      `${alsoWithheld.label} (about ${votesText(alsoWithheld.totalVotes)}) is withheld too: with it shown, everyone's result less the groups shown would reveal the votes that are not shown.`,
    );
  } else if (withheldVotes === 0 && notSaidVotes > 0) {
    sentences.push('No group is withheld.');
  }
  return sentences.length > 0 ? sentences.join(' ') : 'Few or no votes are outside the groups shown here.';
}
