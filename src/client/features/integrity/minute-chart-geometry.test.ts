import { describe, expect, it } from 'vitest';
import type { IntegrityMinute } from '../../../shared/api.js';
import { minuteChart, roundUp } from './minute-chart-geometry.js';

const minute = (at: string, counted: number[], held = [0, 0], discounted = [0, 0]): IntegrityMinute => ({
  at: `2026-11-21T${at}:00.000Z`,
  counted,
  held,
  discounted,
});
const plot = { width: 100, height: 50 };
const NEW_YORK = 'America/New_York';

describe('the votes-per-minute chart', () => {
  it('stacks each minute by option, counted first, then held, then set aside, on a round scale', () => {
    const chart = minuteChart([minute('14:00', [3, 1], [0, 2], [4, 0]), minute('14:09', [1, 0])], [], plot, {
      timeZone: NEW_YORK,
    });
    expect(chart.peak).toBe(10);
    const [first, last] = chart.bars;
    expect(first?.segments.map((s) => [s.status, s.option, s.votes, s.y, s.height])).toEqual([
      ['counted', 0, 3, 35, 15],
      ['counted', 1, 1, 30, 5],
      ['held', 1, 2, 20, 10],
      ['discounted', 0, 4, 0, 20],
    ]);
    // Ten minutes, 14:00 to 14:09: each a tenth of the width.
    expect(first?.x).toBe(0);
    expect(last?.x).toBe(90);
    expect(chart.yTicks.map((tick) => [tick.label, tick.at])).toEqual([
      ['0', 50],
      ['5', 25],
      ['10', 0],
    ]);
  });

  it('shows a chosen span only, with the marks cut to it, and times on the site’s clock', () => {
    const minutes = [minute('13:00', [1, 0]), minute('14:00', [5, 0]), minute('15:00', [1, 0])];
    const chart = minuteChart(
      minutes,
      [
        { state: 'watch', label: 'NET-1', from: '2026-11-21T13:50:00.000Z', to: '2026-11-21T14:05:00.000Z' },
        { state: 'challenge', label: 'NET-1', from: '2026-11-21T16:00:00.000Z', to: '2026-11-21T17:00:00.000Z' },
      ],
      plot,
      { from: Date.parse('2026-11-21T13:55:00.000Z'), to: Date.parse('2026-11-21T14:14:00.000Z'), timeZone: NEW_YORK },
    );
    expect(chart.bars.map((bar) => bar.at)).toEqual(['2026-11-21T14:00:00.000Z']);
    expect(chart.bands.map((band) => [band.mark.state, band.x, band.width])).toEqual([['watch', 0, 50]]);
    // 20 minutes: a tick every 5, at 08:55, 09:00 … in New York.
    expect(chart.xTicks.map((tick) => tick.label)).toEqual(['08:55', '09:00', '09:05', '09:10']);
  });

  it('tops the scale at 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 67, 400, 501].map(roundUp)).toEqual([1, 1, 2, 5, 10, 10, 20, 100, 500, 1000]);
  });
});
