/** Pie slices as SVG paths: the whole chart library this site needs. */

export interface Slice {
  index: number;
  /** Fraction of the pie, 0 to 1. */
  share: number;
  /** SVG path of the slice; a circle when one option has every vote. */
  path: string;
  /** Where the slice's label goes. */
  labelX: number;
  labelY: number;
}

const point = (cx: number, cy: number, r: number, angle: number) => ({
  x: cx + r * Math.sin(angle),
  y: cy - r * Math.cos(angle),
});

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Slices for the given counts, clockwise from twelve o'clock. Options without votes get no
 * slice. `labelRadius` is where labels sit, as a fraction of the radius.
 */
export function pieSlices(counts: readonly number[], cx: number, cy: number, r: number, labelRadius = 0.64): Slice[] {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return [];
  const slices: Slice[] = [];
  let start = 0;
  counts.forEach((count, index) => {
    if (count === 0) return;
    const share = count / total;
    const end = start + share * 2 * Math.PI;
    const middle = (start + end) / 2;
    const label = point(cx, cy, r * labelRadius, middle);
    let path: string;
    if (share >= 1) {
      path = `M ${cx} ${cy - r} A ${r} ${r} 0 1 1 ${cx} ${cy + r} A ${r} ${r} 0 1 1 ${cx} ${cy - r} Z`;
    } else {
      const from = point(cx, cy, r, start);
      const to = point(cx, cy, r, end);
      const largeArc = end - start > Math.PI ? 1 : 0;
      path = `M ${cx} ${cy} L ${round(from.x)} ${round(from.y)} A ${r} ${r} 0 ${largeArc} 1 ${round(to.x)} ${round(to.y)} Z`;
    }
    slices.push({ index, share, path, labelX: round(label.x), labelY: round(label.y) });
    start = end;
  });
  return slices;
}
