/**
 * The results pie: an SVG drawn from the counts, a percentage on every slice big enough to
 * hold one, a tooltip per slice, and a legend. Loaded only when results are shown.
 */
import type { ResultItem } from '../../../shared/results.js';
import { showsSliceLabel, shortLabel, sliceTooltip } from './chart-labels.js';
import { pieSlices } from './chart-geometry.js';
import { chartColorClass } from './palette.js';
import './chart.css';

export interface PieChartProps {
  results: ResultItem[];
  /** Longest option name shown whole in the legend. */
  labelMax: number;
  /** The option this visitor chose, marked in the legend. */
  chosen?: number | null;
}

export default function PieChart({ results, labelMax, chosen = null }: PieChartProps) {
  const slices = pieSlices(
    results.map((r) => r.votes),
    100,
    100,
    96,
  );
  const summary = results.map((r) => `${r.option} ${r.percentage}%`).join(', ');
  return (
    <figure className="pie-chart" data-chart="pie">
      <svg
        viewBox="0 0 200 200"
        className="pie-chart__svg"
        role="img"
        aria-label={`Pie chart of the results: ${summary}`}
      >
        {slices.length === 0 ? (
          <g>
            <circle cx="100" cy="100" r="96" className="pie-chart__empty-disc" />
            <text x="100" y="106" textAnchor="middle" className="pie-chart__empty">
              No votes yet
            </text>
          </g>
        ) : (
          slices.map((slice) => {
            const result = results[slice.index];
            if (!result) return null;
            return (
              <g key={slice.index}>
                <path d={slice.path} className={`pie-chart__slice ${chartColorClass(slice.index)}`} strokeWidth="1.5">
                  <title>{`${result.option}: ${sliceTooltip(result.votes, result.percentage)}`}</title>
                </path>
                {showsSliceLabel(result.percentage) && (
                  <text
                    x={slice.labelX}
                    y={slice.labelY}
                    className="pie-chart__label"
                    textAnchor="middle"
                    dominantBaseline="central"
                  >
                    {result.percentage}%
                  </text>
                )}
              </g>
            );
          })
        )}
      </svg>
      <figcaption>
        <ul className="pie-chart__legend">
          {results.map((result, index) => (
            <li
              key={result.option}
              className={index === chosen ? 'pie-chart__legend-item is-chosen' : 'pie-chart__legend-item'}
            >
              <span className={`pie-chart__swatch ${chartColorClass(index)}`} aria-hidden="true" />
              <span title={result.option}>{shortLabel(result.option, labelMax)}</span>
              {index === chosen && <span className="pie-chart__mine">Your vote</span>}
              <span className="pie-chart__legend-value">{result.percentage}%</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
