/**
 * The series on /admin/polls (issue 38, item 3): each question asked more than once, its runs,
 * and its tracker's name and address, which staff who may edit polls can change (audited).
 */
import { useId, useState } from 'react';
import type { AdminSeries } from '../../../shared/series-schemas.js';
import { SERIES_NAME_MAX, SERIES_SLUG_MAX, trackerPath } from '../../../shared/trackers.js';
import { useAdminSeries, useRenameSeries } from '../../api/admin/series.js';
import { useAdminFailure } from '../../components/admin/use-admin-failure.js';
import { SubmitButton } from '../../components/forms/submit-button.js';
import { toast } from '../../components/ui/toast.js';
import { adminPath } from '../../../shared/admin-paths.js';
import { Link } from '../../lib/router.js';
import { AdminListSection } from './admin-list-section.js';

export function SeriesSection({ editable }: { editable: boolean }) {
  const series = useAdminSeries();
  if (series.isError) return <p role="alert">Failed to load the series. Please try again.</p>;
  if (!series.data) return <p role="status">Loading the series…</p>;
  return (
    <AdminListSection
      title="Series"
      count={series.data.length}
      empty="No question has been asked again yet. Link a new poll to an earlier one to start a series."
    >
      {series.data.map((item) => (
        <SeriesItem key={item.id} series={item} editable={editable} />
      ))}
    </AdminListSection>
  );
}

function SeriesItem({ series, editable }: { series: AdminSeries; editable: boolean }) {
  const id = useId();
  const [name, setName] = useState(series.name);
  const [slug, setSlug] = useState(series.slug);
  const rename = useRenameSeries();
  const failed = useAdminFailure();
  const shown = series.runs.filter((run) => run.status !== 'scheduled').length;
  function save(event: { preventDefault: () => void }) {
    event.preventDefault();
    rename.mutate(
      { id: series.id, name, slug },
      {
        onSuccess: ({ message }) => toast({ title: message }),
        onError: (error) => failed('Failed to save the series', error, { retry: () => save(event) }),
      },
    );
  }
  return (
    <li className="card admin-item">
      <h3 className="admin-item__question">{series.name}</h3>
      <p className="admin-item__meta">
        {shown >= 2 ? <Link to={trackerPath(series.slug)}>{trackerPath(series.slug)}</Link> : trackerPath(series.slug)}
        {shown < 2 && ' (shown once it has run twice)'}
      </p>
      <p className="admin-item__meta">
        Runs:{' '}
        {series.runs.map((run, k) => (
          <span key={run.pollNumber}>
            {k > 0 && ', '}
            <Link to={adminPath({ name: 'poll', pollNumber: run.pollNumber, tab: 'poll' })}>#{run.pollNumber}</Link> (
            {run.liveDate}
            {run.status === 'scheduled' ? ', scheduled' : ''})
          </span>
        ))}
      </p>
      {editable && (
        <form className="admin-series__form" onSubmit={save} noValidate aria-label={`Rename ${series.name}`}>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-name`}>
              Short name
            </label>
            <input
              id={`${id}-name`}
              className="input"
              maxLength={SERIES_NAME_MAX}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-slug`}>
              Address: /trackers/…
            </label>
            <input
              id={`${id}-slug`}
              className="input"
              maxLength={SERIES_SLUG_MAX}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${id}-slug-help`}
              value={slug}
              onChange={(e) => setSlug(e.target.value)}
            />
            <p id={`${id}-slug-help`} className="admin-form__help">
              Lower-case letters and digits joined by hyphens. Links to the old address stop working.
            </p>
          </div>
          <SubmitButton sending={rename.isPending} sendingLabel="Saving…">
            Save series
          </SubmitButton>
        </form>
      )}
    </li>
  );
}
