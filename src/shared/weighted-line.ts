/**
 * The weighted line in words, under a closed poll's raw result wherever results are shown (the
 * site's pages, the embed, the print sheet): "Adjusted to the mix of US K-12 teachers: 58% Yes,
 * 42% No (512 teachers; effective sample 310)." followed by a link to /methods. Every option is
 * named, in the poll's order, as the raw result beside it names them (semicolons between them
 * when an option's own words hold a comma). A poll's own line gives each option its 95%
 * credibility interval (issue 38): "58% Yes (54–62%), 42% No (38–46%). 512 teachers; effective
 * sample 310; ranges are 95% credibility intervals." Never a ± figure, never called a margin of
 * error: for an opt-in sample a margin of error is misleading (AAPOR). Withheld, it is one quiet sentence
 * saying why; the API always names the rule.
 */
import { formatCount } from './results.js';
import { WEIGHTING_RULES, WITHHELD_REASON_TEXT, type Weighted } from './weighting.js';

const CREDIBILITY_LEVEL = `${WEIGHTING_RULES.interval.level * 100}%`;

export interface WeightedLine {
  /** True when the line gives adjusted figures; false when it says why there are none. */
  adjusted: boolean;
  /** The sentence, ending with its full stop; the METHODS link follows it. */
  text: string;
}

/**
 * The line for `weighted` on a poll with these options; null when there is nothing to say
 * (no line yet: voting is open, or the results carry none).
 */
export function weightedLine(weighted: Weighted | undefined, options: readonly string[]): WeightedLine | null {
  if (!weighted) return null;
  if ('withheld' in weighted) {
    return weighted.withheld === 'voting-open'
      ? null
      : { adjusted: false, text: WITHHELD_REASON_TEXT[weighted.withheld] };
  }
  // Options are told apart by commas, or by semicolons when an option's own words hold a comma.
  const separator = options.some((option) => option.includes(',')) ? '; ' : ', ';
  const { interval } = weighted;
  const range = (i: number) => (interval ? ` (${interval.low[i] ?? 0}–${interval.high[i] ?? 0}%)` : '');
  const figures = options.map((option, i) => `${weighted.percentages[i] ?? 0}% ${option}${range(i)}`).join(separator);
  const teachers = weighted.votesInScope === 1 ? '1 teacher' : `${formatCount(weighted.votesInScope)} teachers`;
  const sample = `${teachers}; effective sample ${formatCount(weighted.effectiveSample)}`;
  return {
    adjusted: true,
    text: interval
      ? `Adjusted to the mix of ${weighted.population}: ${figures}. ${sample}; ranges are ${CREDIBILITY_LEVEL} credibility intervals.`
      : `Adjusted to the mix of ${weighted.population}: ${figures} (${sample}).`,
  };
}
