/**
 * One option of a tracker as a line chart, drawn on the server (no script needed): its share as
 * voted run by run (a solid line), and where it was shown, the adjusted line (dashed) inside its
 * 95% credibility band (shaded). Each point is labelled with its run's date and votes; the
 * table under the charts holds the same figures for screen readers.
 */
import { useId } from 'react';
import type { Tracker } from '../../../shared/trackers.js';
import { formatShortLocalDate } from '../../lib/clock-labels.js';
import { bandPieces, labelStep, pointsOf, xsOf, yOf, type Frame } from './tracker-geometry.js';
import { chartColorClass } from '../../components/chart/palette.js';

const FRAME: Frame = { width: 360, height: 210, left: 34, right: 26, top: 12, bottom: 46 };
const GRID = [0, 25, 50, 75, 100];
const POINT_INSET = 16;

export function TrackerChart({ tracker, index }: { tracker: Tracker; index: number }) {
  const id = useId();
  const option = tracker.options[index] ?? '';
  const { runs } = tracker;
  // The first run's point stands clear of the axis, so its value never sits on a tick's label.
  const xs = xsOf(runs, { ...FRAME, left: FRAME.left + POINT_INSET });
  const raw = runs.map((run) => run.percentages[index] ?? 0);
  const adjusted = runs.map((run) => run.adjusted?.percentages[index] ?? null);
  const bands = runs.map((run) =>
    run.adjusted?.low && run.adjusted.high
      ? { low: run.adjusted.low[index] ?? 0, high: run.adjusted.high[index] ?? 0 }
      : null,
  );
  const first = raw[0] ?? 0;
  const last = raw.at(-1) ?? 0;
  // Dates only where they fit, always the newest run's, so they never overlap on a phone.
  const step = labelStep(runs.length, { ...FRAME, left: FRAME.left + POINT_INSET }, 72);
  return (
    <figure className={`tracker-chart ${chartColorClass(index)}`}>
      <figcaption id={`${id}-caption`} className="tracker-chart__caption">
        {option}
      </figcaption>
      <svg
        className="tracker-chart__svg"
        viewBox={`0 0 ${FRAME.width} ${FRAME.height}`}
        role="img"
        aria-labelledby={`${id}-caption ${id}-desc`}
      >
        <desc id={`${id}-desc`}>
          {`“${option}” over ${runs.length} runs, from ${first}% to ${last}% as voted. The table below gives every figure.`}
        </desc>
        {GRID.map((percent) => (
          <g key={percent} className="tracker-chart__grid">
            <line x1={FRAME.left} x2={FRAME.width - FRAME.right} y1={yOf(percent, FRAME)} y2={yOf(percent, FRAME)} />
            <text x={FRAME.left - 4} y={yOf(percent, FRAME) + 4} textAnchor="end">
              {percent}%
            </text>
          </g>
        ))}
        {bandPieces(xs, bands, FRAME).map((points) => (
          <polygon key={points} className="tracker-chart__band" points={points} />
        ))}
        {adjustedPieces(adjusted).map((piece) => (
          <polyline
            key={piece.join()}
            className="tracker-chart__adjusted"
            points={pointsOf(
              piece.map((k) => xs[k] ?? 0),
              piece.map((k) => yOf(adjusted[k] ?? 0, FRAME)),
            )}
          />
        ))}
        <polyline
          className="tracker-chart__raw"
          points={pointsOf(
            xs,
            raw.map((p) => yOf(p, FRAME)),
          )}
        />
        {runs.map((run, k) => (
          <g key={run.pollNumber}>
            <circle className="tracker-chart__dot" cx={xs[k]} cy={yOf(raw[k] ?? 0, FRAME)} r={3.5} />
            <text className="tracker-chart__value" x={xs[k]} y={yOf(raw[k] ?? 0, FRAME) - 7} textAnchor="middle">
              {raw[k]}%
            </text>
            {k % step === (runs.length - 1) % step && (
              <text className="tracker-chart__label" x={xs[k]} y={FRAME.height - FRAME.bottom + 16} textAnchor="middle">
                <tspan x={xs[k]}>{formatShortLocalDate(run.liveDate)}</tspan>
                <tspan x={xs[k]} dy="13">
                  n={run.totalVotes}
                </tspan>
              </text>
            )}
          </g>
        ))}
      </svg>
    </figure>
  );
}

/** Runs of consecutive points that have an adjusted line (by index). */
function adjustedPieces(values: readonly (number | null)[]): number[][] {
  const pieces: number[][] = [];
  let piece: number[] = [];
  values.forEach((value, k) => {
    if (value === null) {
      if (piece.length > 1) pieces.push(piece);
      piece = [];
    } else piece.push(k);
  });
  if (piece.length > 1) pieces.push(piece);
  return pieces;
}
