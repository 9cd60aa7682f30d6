/**
 * The weighted line under a closed poll's raw result (shared/weighted-line.ts words it): the
 * result adjusted to the mix of US K-12 teachers, or one quiet sentence saying why there is
 * none, each followed by "How we adjust" (/methods). Nothing while voting is open. Every page
 * loads it through lazy-weighted-line.tsx, only once a poll has closed: the first visit's
 * script stays as it was.
 */
import type { Weighted } from '../../../shared/weighting.js';
import { METHODS } from '../../../shared/methods.js';
import { weightedLine } from '../../../shared/weighted-line.js';
import { Link } from '../../lib/router.js';
import './chart.css';

export default function WeightedLine({
  weighted,
  options,
}: {
  weighted: Weighted | undefined;
  options: readonly string[];
}) {
  const line = weightedLine(weighted, options);
  if (line === null) return null;
  return (
    <p className={line.adjusted ? 'weighted-line' : 'weighted-line weighted-line--withheld'}>
      {line.text} <Link to={METHODS.path}>{METHODS.linkText}</Link>
    </p>
  );
}
