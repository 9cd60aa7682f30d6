/**
 * The US K-12 teacher workforce margins the weighted line is raked to, read from the committed,
 * dated file next to this one (its sources, school years and addresses are in the file), and
 * the open data that lets anyone redo our numbers (GET /data/weighting.json).
 */
import {
  WEIGHTING_CATEGORIES,
  WEIGHTING_MAPPING,
  WEIGHTING_MARGINS,
  WEIGHTING_RULES,
  type WeightingMargin,
} from '../../shared/weighting.js';
import file from './nces-targets-2020-21.json' with { type: 'json' };

interface TargetsFile {
  population: string;
  margins: Record<WeightingMargin, { categories: Record<string, { label: string; percent: number }> }>;
}

/** Published percentages are rounded: a margin is accepted within this many points of 100. */
const ROUNDING_POINTS = 0.5;

function loadTargets(targets: TargetsFile) {
  const shares = {} as Record<WeightingMargin, number[]>;
  for (const margin of WEIGHTING_MARGINS) {
    const percents = WEIGHTING_CATEGORIES[margin].map((id) => targets.margins[margin].categories[id]?.percent);
    const sum = percents.reduce<number>((a, b) => a + (b ?? NaN), 0);
    if (!(Math.abs(sum - 100) <= ROUNDING_POINTS)) {
      throw new Error(`Weighting targets: the ${margin} margin is incomplete or adds up to ${sum}%, not 100%`);
    }
    // Rescaled to add up to exactly 1, as raking needs.
    shares[margin] = percents.map((percent) => (percent ?? 0) / sum);
  }
  return { population: targets.population, shares };
}

export const WEIGHTING_TARGETS = loadTargets(file);

/** The object served at GET /data/weighting.json. */
export function weightingOpenData() {
  return {
    ...file,
    mapping: WEIGHTING_MAPPING,
    rules: WEIGHTING_RULES,
  };
}
