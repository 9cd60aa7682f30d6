/** A tracker's sparkline on /trackers: each option's share as voted, run by run, drawn on the server. */
import type { TrackerSummary } from '../../../shared/trackers.js';
import { pointsOf, xsOf, yOf, type Frame } from './tracker-geometry.js';
import { chartColorClass } from '../../components/chart/palette.js';

const FRAME: Frame = { width: 160, height: 48, left: 3, right: 3, top: 3, bottom: 3 };

export function Sparkline({ tracker }: { tracker: TrackerSummary }) {
  const xs = xsOf(tracker.runs, FRAME);
  return (
    <svg className="sparkline" viewBox={`0 0 ${FRAME.width} ${FRAME.height}`} aria-hidden="true" focusable="false">
      <line
        className="sparkline__axis"
        x1={FRAME.left}
        x2={FRAME.width - FRAME.right}
        y1={yOf(50, FRAME)}
        y2={yOf(50, FRAME)}
      />
      {tracker.options.map((option, k) => {
        const ys = tracker.runs.map((run) => yOf(run.percentages[k] ?? 0, FRAME));
        return (
          <g key={option} className={chartColorClass(k)}>
            <polyline className="sparkline__line" points={pointsOf(xs, ys)} />
            <circle className="sparkline__dot" cx={xs.at(-1)} cy={ys.at(-1)} r={2.5} />
          </g>
        );
      })}
    </svg>
  );
}
