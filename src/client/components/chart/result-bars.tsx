/** One bar per option with its percentage and vote count: the results as text and bars. */
import type { ResultItem } from '../../../shared/results.js';
import { votesText } from './chart-labels.js';
import { chartColorClass } from './palette.js';
import './chart.css';

export function ResultBars({
  results,
  chosen = null,
  compact = false,
}: {
  results: ResultItem[];
  chosen?: number | null;
  /** Smaller type and bars, for many groups of bars in a row (the breakdowns). */
  compact?: boolean;
}) {
  return (
    <ul className={compact ? 'result-bars result-bars--compact' : 'result-bars'}>
      {results.map((result, index) => (
        <li key={result.option} className="result-bars__item">
          <div className="result-bars__text">
            <span className="result-bars__option">
              {result.option}
              {index === chosen && <span className="result-bars__mine"> (your vote)</span>}
            </span>
            <span className="result-bars__numbers">
              <strong>{result.percentage}%</strong> · {votesText(result.votes)}
            </span>
          </div>
          <div className="result-bars__track" aria-hidden="true">
            <div className={`result-bars__fill ${chartColorClass(index)}`} style={{ width: `${result.percentage}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
