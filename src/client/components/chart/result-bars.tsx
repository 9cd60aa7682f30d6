/** One bar per option with its percentage and vote count: the results as text and bars. */
import type { ResultItem } from '../../../shared/results.js';
import { votesText } from './chart-labels.js';
import { colorFor } from './palette.js';
import './chart.css';

export function ResultBars({ results, chosen = null }: { results: ResultItem[]; chosen?: number | null }) {
  return (
    <ul className="result-bars">
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
            <div
              className="result-bars__fill"
              style={{ width: `${result.percentage}%`, background: colorFor(index) }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
