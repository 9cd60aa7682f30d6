/**
 * Setting a network's counted votes aside (or a surge's, by its signal): the time range (a flagged burst's, or the network's
 * first to last vote, which staff may narrow to the second), and a reason, which the log keeps.
 * The dialog stays open, reason and all, until the server has done it.
 */
import { useState } from 'react';
import type { IntegrityReport, ResultItem } from '../../../shared/api.js';
import { INTEGRITY_REASON_MAX_LENGTH } from '../../../shared/limits.js';
import { votesText } from '../../../shared/results.js';
import { discountRequest } from '../../../shared/schemas.js';
import { instantAt, localDateAt } from '../../../shared/time.js';
import { useDiscountVotes } from '../../api/admin/integrity-changes.js';
import { useAdminFailure } from '../../components/admin/use-admin-failure.js';
import { ResultBars } from '../../components/chart/result-bars.js';
import { TextAreaField } from '../../components/forms/text-area-field.js';
import { TextField } from '../../components/forms/text-field.js';
import { Dialog, DialogClose, DialogDescription } from '../../components/ui/dialog.js';
import { toast } from '../../components/ui/toast.js';
import { siteClock } from '../../lib/site-config.js';
import { timeOfDay } from './review-words.js';

/** What staff chose to set aside: a network, and its votes' span to start from. */
/** What the review's tables and cards hand staff: the report, and the two actions on a network. */
export interface ReviewActionsProps {
  report: IntegrityReport;
  onDiscount: (target: DiscountTarget) => void;
  onRelease: (bucket: string, label: string, held: number) => void;
}

export interface DiscountTarget {
  /** A network; or none, for a poll's surge set aside by its signal. */
  bucket?: string;
  /** The votes with this signal only: a surge's first-time browsers. */
  signal?: 'first-time' | 'no-page';
  label: string;
  from: string;
  to: string;
  /** Its counted votes in that span, when known (a flagged burst). */
  counted?: number;
  /** The results without them, when known. */
  preview?: { results: ResultItem[]; totalVotes: number };
}

/**
 * The instant a "HH:MM:SS" typed on the site's clock names on `day`: its first millisecond, or
 * (`end`) its last, so a range typed to the second takes every vote of its last second.
 */
function typedInstant(day: string, text: string, end: boolean): string | null {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) return null;
  const start = instantAt(day, { hours: Number(match[1]), minutes: Number(match[2]) }, siteClock.timeZone);
  return new Date(start.getTime() + Number(match[3] ?? 0) * 1000 + (end ? 999 : 0)).toISOString();
}

export function DiscountDialog({
  pollId,
  target,
  onClose,
}: {
  pollId: number;
  target: DiscountTarget;
  onClose: () => void;
}) {
  const day = localDateAt(new Date(target.from), siteClock.timeZone);
  const initial = { from: timeOfDay(target.from), to: timeOfDay(target.to) };
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useDiscountVotes();
  const failed = useAdminFailure();

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    // Untouched, the range is the burst's own, to the millisecond.
    const body = {
      ...(target.bucket === undefined ? {} : { bucket: target.bucket }),
      ...(target.signal === undefined ? {} : { signal: target.signal }),
      from: from === initial.from ? target.from : typedInstant(day, from, false),
      to: to === initial.to ? target.to : typedInstant(day, to, true),
      reason,
    };
    if (body.from === null || body.to === null) {
      setProblem('Please give both times, as hours, minutes and seconds.');
      return;
    }
    const checked = discountRequest.safeParse(body);
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? 'Please check the times and the reason.');
      return;
    }
    setProblem(null);
    mutation.mutate(
      { pollId, ...checked.data },
      {
        onSuccess: (result) => {
          toast({
            title: result.message,
            description: `Logged as discount #${result.action.id}. Restore it from the log.`,
          });
          onClose();
        },
        onError: (error) => failed('Failed to set the votes aside', error),
      },
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={`Set aside votes from ${target.label}?`}
      className="discount-dialog"
    >
      <DialogDescription>
        {target.counted === undefined
          ? 'Its counted votes in this time'
          : `Its ${votesText(target.counted)} counted in this time`}{' '}
        will count nowhere: not in the results, the breakdowns or the open data. They stay recorded, and a restore
        counts them again.
      </DialogDescription>
      {target.preview && (
        <div className="discount-dialog__preview">
          <p className="discount-dialog__preview-title">
            The results without them ({votesText(target.preview.totalVotes)})
          </p>
          <ResultBars results={target.preview.results} compact />
        </div>
      )}
      <form className="discount-dialog__form" onSubmit={submit} noValidate>
        <div className="discount-dialog__times">
          <TextField label="From" type="time" step={1} value={from} onChange={setFrom} />
          <TextField label="To" type="time" step={1} value={to} onChange={setTo} />
        </div>
        <TextAreaField
          label="Reason (kept in the integrity log)"
          value={reason}
          onChange={setReason}
          rows={3}
          maxLength={INTEGRITY_REASON_MAX_LENGTH}
          required
        />
        {problem && (
          <p role="alert" className="discount-dialog__problem">
            {problem}
          </p>
        )}
        <div className="dialog__actions">
          <DialogClose className="button button--quiet" type="button">
            Cancel
          </DialogClose>
          <button type="submit" className="button button--danger" disabled={mutation.isPending}>
            {mutation.isPending ? 'Setting aside…' : 'Set votes aside'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
