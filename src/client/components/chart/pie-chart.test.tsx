import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { resultItems } from '../../../shared/results.js';
import { pieSlices } from './chart-geometry.js';
import { RESULTS_CHART_LABEL_MAX, shortLabel, showsSliceLabel, sliceTooltip, votesText } from './chart-labels.js';
import PieChart from './pie-chart.js';

/** The texts drawn inside the pie (not the legend). */
function sliceLabels(markup: string): string[] {
  return [...markup.matchAll(/<text[^>]*class="pie-chart__label"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');
}

describe('PieChart', () => {
  it('labels slices of 7% and more, and leaves smaller ones unlabelled', () => {
    const results = resultItems(['Yes', 'No', 'Maybe', 'Other'], [47, 46, 6, 1]);
    const markup = renderToStaticMarkup(<PieChart results={results} labelMax={RESULTS_CHART_LABEL_MAX} />);
    expect(sliceLabels(markup)).toEqual(['47%', '46%']);
    expect(markup.match(/<path /g)).toHaveLength(4);
    expect(markup).toContain('<title>Maybe: 6 votes (6%)</title>');
    expect(markup).toContain('<title>Other: 1 vote (1%)</title>');
  });

  it('draws a full circle for a unanimous poll, and a grey one with no votes', () => {
    const unanimous = renderToStaticMarkup(<PieChart results={resultItems(['A', 'B'], [3, 0])} labelMax={25} />);
    expect(sliceLabels(unanimous)).toEqual(['100%']);
    expect(unanimous.match(/<path /g)).toHaveLength(1);
    const empty = renderToStaticMarkup(<PieChart results={resultItems(['A', 'B'], [0, 0])} labelMax={25} />);
    expect(empty).toContain('No votes yet');
    expect(empty).not.toContain('<path');
  });

  it('shortens long option names in the legend and keeps the whole name as its title', () => {
    const name = 'Only during instructional time in class';
    const markup = renderToStaticMarkup(<PieChart results={resultItems([name, 'No'], [1, 1])} labelMax={25} />);
    // Over 25 characters: the first 22, then an ellipsis (spec section 5).
    expect(markup).toContain(`title="${name}">Only during instructio…</span>`);
  });

  it('marks the visitor’s own choice and describes the chart for screen readers', () => {
    const markup = renderToStaticMarkup(
      <PieChart results={resultItems(['Yes', 'No'], [3, 1])} labelMax={25} chosen={1} />,
    );
    expect(markup).toContain('aria-label="Pie chart of the results: Yes 75%, No 25%"');
    expect(markup.match(/Your vote/g)).toHaveLength(1);
    expect(markup).toMatch(/is-chosen[^>]*>.*No.*Your vote/);
  });
});

describe('chart labels', () => {
  it('shortens names over the limit to the limit, ending in an ellipsis', () => {
    expect(shortLabel('x'.repeat(25), 25)).toBe('x'.repeat(25));
    expect(shortLabel('x'.repeat(26), 25)).toBe(`${'x'.repeat(22)}…`);
    expect(shortLabel('Only part of recess, rarely', 20)).toBe('Only part of rece…');
    expect(shortLabel('abcdefghijklmnop q rest', 20)).toBe('abcdefghijklmnop…'); // no space before …
  });

  it('hides slice labels under 7%', () => {
    expect(showsSliceLabel(6)).toBe(false);
    expect(showsSliceLabel(7)).toBe(true);
  });

  it('says "1 vote" and "N votes", with thousands separated', () => {
    expect(votesText(1)).toBe('1 vote');
    expect(votesText(0)).toBe('0 votes');
    expect(votesText(12345)).toBe('12,345 votes');
    expect(sliceTooltip(4, 40)).toBe('4 votes (40%)');
  });
});

describe('pieSlices', () => {
  it('goes clockwise from twelve o’clock and closes each slice at the centre', () => {
    const [half, quarter] = pieSlices([2, 1, 1], 100, 100, 100);
    expect(half?.path).toBe('M 100 100 L 100 0 A 100 100 0 0 1 100 200 Z');
    expect(quarter?.path).toBe('M 100 100 L 100 200 A 100 100 0 0 1 0 100 Z');
    expect(half?.labelX).toBeGreaterThan(100); // the first half is on the right
  });

  it('uses the large arc for a slice over half the pie, and skips options without votes', () => {
    const slices = pieSlices([3, 0, 1], 100, 100, 100);
    expect(slices.map((s) => s.index)).toEqual([0, 2]);
    expect(slices[0]?.path).toContain('A 100 100 0 1 1');
  });
});
