/** The rules for words on the chart (spec sections 5 and 9). */
import { votesText } from '../../../shared/results.js';

/** Slices smaller than this carry no percentage label: it would not fit. */
export const SLICE_LABEL_MIN_PERCENT = 7;

/** Option names longer than this are shortened in the results chart's legend. */
export const RESULTS_CHART_LABEL_MAX = 25;

/** ... and longer than this on a closed poll's page. */
export const CLOSED_POLL_LABEL_MAX = 20;

export function showsSliceLabel(percentage: number): boolean {
  return percentage >= SLICE_LABEL_MIN_PERCENT;
}

/** "A very long option name" shortened to `max` characters, the last one an ellipsis. */
export function shortLabel(label: string, max: number): string {
  return label.length > max ? `${label.slice(0, max - 3).trimEnd()}…` : label;
}

export { votesText };

/** The tooltip of a slice: "{n} votes ({pct}%)". */
export function sliceTooltip(votes: number, percentage: number): string {
  return `${votesText(votes)} (${percentage}%)`;
}
