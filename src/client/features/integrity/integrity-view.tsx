/**
 * A poll's integrity review for staff (issue 25): its votes per minute with the networks the
 * detector watched or challenged, the flagged bursts with the results without each, the
 * networks with the most votes, the challenge for everyone, and the log. Discounting, restoring
 * and releasing happen here; each refreshes the report. Loaded only when staff open it.
 */
import { useId, useState, type ReactNode } from 'react';
import type { IntegrityAction, IntegrityReport } from '../../../shared/api.js';
import { formatCount, votesText } from '../../../shared/results.js';
import { useIntegrityReport } from '../../api/admin/get-integrity-report.js';
import { useReleaseHeldVotes, useRestoreVotes, useSwitchChallenge } from '../../api/admin/integrity-changes.js';
import { useStaffAction } from '../../components/admin/staff-action.js';
import '../../components/chart/chart.css';
import { useConfirm } from '../../components/ui/confirm.js';
import { DiscountDialog, type DiscountTarget } from './discount-dialog.js';
import { FlaggedBursts } from './flagged-bursts.js';
import { IntegrityLog } from './integrity-log.js';
import { BusiestMinutes, MinuteChart, MinuteChartLegend } from './minute-chart.js';
import { NetworkTable } from './network-table.js';
import { timeOfDay } from './review-words.js';
import './integrity.css';

export interface IntegrityViewProps {
  pollId: number;
  /** Today's poll: votes still come, so the report is read again every 30 seconds. */
  live: boolean;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="integrity-section" aria-labelledby={id}>
      <h4 id={id}>{title}</h4>
      {children}
    </section>
  );
}

export default function IntegrityView({ pollId, live }: IntegrityViewProps) {
  const report = useIntegrityReport(pollId, { live });
  if (report.isPending) {
    return (
      <p role="status" className="integrity-empty">
        Loading the integrity review…
      </p>
    );
  }
  if (report.isError) {
    return (
      <p role="alert" className="integrity-empty">
        The integrity review could not be loaded.{' '}
        <button type="button" className="button button--quiet" onClick={() => void report.refetch()}>
          Try again
        </button>
      </p>
    );
  }
  return <Review report={report.data} />;
}

function Review({ report }: { report: IntegrityReport }) {
  const [discounting, setDiscounting] = useState<DiscountTarget | null>(null);
  const { confirm, dialog } = useConfirm();
  const restoreMutation = useRestoreVotes();
  const restore = useStaffAction(restoreMutation, {
    request: (action: IntegrityAction) => ({ pollId: report.pollId, discountId: action.id }),
    failure: () => ({ title: 'Failed to restore the votes' }),
  });
  const release = useStaffAction(
    useReleaseHeldVotes(),
    {
      request: ({ bucket }: { bucket: string | null; label: string; held: number }) => ({
        pollId: report.pollId,
        ...(bucket === null ? {} : { bucket }),
      }),
      ask: ({ label, held }) => ({
        title: `Count ${votesText(held)} held from ${label}?`,
        description:
          'They were cast without the proof of work their network was asked for. Released, they count in the results like any other vote.',
        confirmLabel: 'Release and count',
      }),
      failure: () => ({ title: 'Failed to release the held votes' }),
    },
    confirm,
  );
  const onRelease = (bucket: string, label: string, held: number) => void release({ bucket, label, held });

  return (
    <div className="integrity">
      <p className="integrity-summary">
        <strong>{formatCount(report.votes.counted)}</strong> counted · <strong>{formatCount(report.votes.held)}</strong>{' '}
        held · <strong>{formatCount(report.votes.discounted)}</strong> set aside
        {report.votes.held > 0 && (
          <button
            type="button"
            className="button button--quiet"
            onClick={() => void release({ bucket: null, label: 'every network', held: report.votes.held })}
          >
            Release every held vote…
          </button>
        )}
      </p>
      {report.status !== 'past' && <ChallengeSwitch report={report} />}

      <Section title="Votes per minute">
        <MinuteChart minutes={report.minutes} marks={report.marks} options={report.options} title="Votes per minute" />
        <MinuteChartLegend options={report.options} />
        <BusiestMinutes minutes={report.minutes} options={report.options} />
      </Section>
      {report.surge && (
        <Section title="Surge">
          <SurgeCard surge={report.surge} onDiscount={setDiscounting} />
        </Section>
      )}
      <Section title="Flagged bursts">
        <FlaggedBursts report={report} onDiscount={setDiscounting} onRelease={onRelease} />
      </Section>
      <Section title="Networks">
        <NetworkTable report={report} onDiscount={setDiscounting} onRelease={onRelease} />
      </Section>
      <Section title="Integrity log">
        <IntegrityLog
          log={report.log}
          restoring={restoreMutation.isPending}
          onRestore={(action) => void restore(action)}
        />
      </Section>
      {discounting && (
        <DiscountDialog pollId={report.pollId} target={discounting} onClose={() => setDiscounting(null)} />
      )}
      {dialog}
    </div>
  );
}

/** The challenge for everyone: a switch, said in words either way. */
function ChallengeSwitch({ report }: { report: IntegrityReport }) {
  const mutation = useSwitchChallenge();
  const flip = useStaffAction(mutation, {
    request: (everyone: boolean) => ({ pollId: report.pollId, everyone }),
    failure: () => ({ title: 'Failed to change the challenge' }),
  });
  const labelId = useId();
  const on = report.challengeEveryone;
  return (
    <div className="integrity-switch">
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby={labelId}
        className="integrity-switch__control"
        disabled={mutation.isPending}
        onClick={() => void flip(!on)}
      >
        <span className="integrity-switch__thumb" aria-hidden="true" />
      </button>
      <span id={labelId}>
        Ask every vote on this poll for a proof of work{' '}
        <span className="integrity-switch__state">({on ? 'on: every network' : 'off: challenged networks only'})</span>
      </span>
    </div>
  );
}

const SIGNAL_WORDS: Record<string, string> = {
  'first-time': 'most votes came from first-time browsers',
  'no-page': 'many votes came without a page',
  split: 'one option got far more of the votes than before',
};

/**
 * The poll's surge: votes from many networks at once, unlike the poll's own earlier votes
 * (integrity/detector.ts). Set aside in one action: its first-time browsers' counted votes.
 */
function SurgeCard({
  surge,
  onDiscount,
}: {
  surge: NonNullable<IntegrityReport['surge']>;
  onDiscount: (target: DiscountTarget) => void;
}) {
  const signals = surge.signals.map((signal) => SIGNAL_WORDS[signal] ?? signal).join('; ');
  return (
    <div className="integrity-surge">
      <p>
        {surge.on ? 'A surge is on' : 'A surge'} from {timeOfDay(surge.from)} to {timeOfDay(surge.to)}: {signals}.{' '}
        {surge.on && 'First-time browsers are asked for a proof of work. '}
        {formatCount(surge.votes.counted)} counted, {formatCount(surge.votes.held)} held in that time;{' '}
        {formatCount(surge.firstTimeVotes.counted)} counted from first-time browsers.
      </p>
      {surge.firstTimeVotes.counted > 0 && (
        <button
          type="button"
          className="button button--quiet"
          onClick={() =>
            onDiscount({
              signal: 'first-time',
              label: 'first-time browsers',
              from: surge.from,
              to: surge.to,
              counted: surge.firstTimeVotes.counted,
            })
          }
        >
          Set aside its first-time browsers’ votes…
        </button>
      )}
    </div>
  );
}
