import { useState } from 'react';
import type { ActivePoll } from '../../../../shared/api.js';
import { RESULTS_CHART_LABEL_MAX, votesText } from '../../../components/chart/chart-labels.js';
import { LazyPieChart } from '../../../components/chart/lazy-pie-chart.js';
import { ResultBars } from '../../../components/chart/result-bars.js';
import { SetAsideNote } from '../../../components/chart/set-aside-note.js';
import { LazyWeightedLine } from '../../../components/chart/lazy-weighted-line.js';
import { toast } from '../../../components/ui/toast.js';
import { siteClock, siteConfig } from '../../../lib/site-config.js';
import { OnceHydrated } from '../../../lib/use-hydrated.js';
import { PhaseCountdown } from './countdown.js';

export default function ResultsView({ poll, onShare }: { poll: ActivePoll; onShare: () => void }) {
  const results = poll.results ?? [];
  const [exporting, setExporting] = useState(false);

  async function shareImage() {
    setExporting(true);
    try {
      const { shareChartImage } = await import('../../../components/chart/chart-image.js');
      const outcome = await shareChartImage({
        siteName: siteConfig.siteName,
        timeZone: siteClock.timeZone,
        pollNumber: poll.pollNumber,
        question: poll.question,
        results,
        totalVotes: poll.totalVotes,
        setAsideVotes: poll.setAsideVotes ?? 0,
      });
      if (outcome === 'downloaded') toast({ title: 'Pie chart image downloaded!' });
    } catch (error) {
      // The image module's own failures carry the spec's sentence; anything else is generic.
      const ownFailure = error instanceof Error && error.name === 'ChartImageError';
      toast({
        title: ownFailure ? error.message : 'Failed to create chart image. Please try again.',
        variant: 'failure',
      });
    } finally {
      setExporting(false);
    }
  }

  const mine = poll.userVoteOption;
  return (
    <>
      <PhaseCountdown />
      <LazyPieChart results={results} labelMax={RESULTS_CHART_LABEL_MAX} chosen={mine} />
      <p className="poll-card__total">{votesText(poll.totalVotes)}</p>
      <SetAsideNote setAsideVotes={poll.setAsideVotes ?? 0} />
      {/* Only once voting has closed: the API sends no weighted line before. */}
      <LazyWeightedLine weighted={poll.weighted} options={poll.options} />
      {/* A native disclosure: the bars open with scripts off too, and hydrating measures nothing. */}
      <details className="breakdown">
        <summary className="breakdown__trigger">
          Poll Results Breakdown
          <span aria-hidden="true" className="breakdown__chevron">
            ▾
          </span>
        </summary>
        <div className="breakdown__content">
          <ResultBars results={results} chosen={mine} />
        </div>
      </details>
      <OnceHydrated>
        {(hydrated) => (
          <div className="poll-card__actions">
            <button type="button" className="button button--secondary" onClick={onShare} disabled={!hydrated}>
              Share
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void shareImage()}
              disabled={exporting || !hydrated}
            >
              {exporting ? 'Creating image…' : 'Share Chart Image'}
            </button>
          </div>
        )}
      </OnceHydrated>
    </>
  );
}
