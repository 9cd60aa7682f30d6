/** One row of a poll's results, as the charts and bars show it. */
export interface ResultItem {
  option: string;
  votes: number;
  /** Whole percent; the percentages of a poll always add up to 100 (or are all 0). */
  percentage: number;
}

/**
 * Turns vote counts into whole percentages that add up to exactly 100, by the largest
 * remainder method: everyone gets the floor of their share, then the points still missing go
 * to the largest remainders (ties to the option listed first, so the result is stable).
 */
export function wholePercentages(counts: readonly number[]): number[] {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return counts.map(() => 0);

  const shares = counts.map((n, index) => {
    const exact = (n * 100) / total;
    return { index, floor: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let missing = 100 - shares.reduce((sum, s) => sum + s.floor, 0);
  const byRemainder = [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const share of byRemainder) {
    if (missing === 0) break;
    share.floor += 1;
    missing -= 1;
  }
  return shares.map((s) => s.floor);
}

/**
 * A whole number with en-US thousands separators: "1,234,567". Written out rather than with
 * toLocaleString, whose first use in a browser loads Intl's locale data (40 to 60 ms of blocked
 * main thread on a fast machine, before the page answers a tap).
 */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** "1 vote", "1,234 votes": how every screen, e-mail and preview counts votes. */
export function votesText(votes: number): string {
  return votes === 1 ? '1 vote' : `${formatCount(votes)} votes`;
}

/**
 * What results say in public about the votes set aside after review (held, or discounted by
 * staff: DESIGN.md, Vote integrity): how many, never which networks or by what rule. "1 vote set
 * aside after review", "1,234 votes set aside after review"; null when none was, so a poll nobody
 * tried to stuff says nothing about it. Every place that shows results words it here, and links
 * it to "How we keep results honest" (honest-results.ts).
 */
export function setAsideNote(setAsideVotes: number): string | null {
  return setAsideVotes > 0 ? `${votesText(setAsideVotes)} set aside after review` : null;
}

export function resultItems(options: readonly string[], counts: readonly number[]): ResultItem[] {
  const percentages = wholePercentages(counts);
  return options.map((option, i) => ({
    option,
    votes: counts[i] ?? 0,
    percentage: percentages[i] ?? 0,
  }));
}
