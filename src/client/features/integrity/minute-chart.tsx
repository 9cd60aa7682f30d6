/**
 * Votes per minute, stacked by option in the results' colours: counted solid, held pale, set
 * aside grey; the minutes a network was watched or challenged shaded behind. An SVG of our
 * own, like the results pie; what it shows is also said in words, and the busiest minutes are
 * listed in a table.
 */
import type { IntegrityMark, IntegrityMinute } from '../../../shared/api.js';
import { votesText } from '../../../shared/results.js';
import { localTimeAt } from '../../../shared/time.js';
import { chartColorClass } from '../../components/chart/palette.js';
import { TableFrame } from '../../components/ui/table-frame.js';
import { siteClock } from '../../lib/site-config.js';
import { minuteChart, STACK_ORDER } from './minute-chart-geometry.js';

/** The drawing's size, and the margins round the plot for the axes' labels (`right`: room for the last time, centred on the edge). */
const FRAME = { width: 640, height: 180, left: 34, right: 18, bottom: 22, top: 8 } as const;

const STATUS_WORD = { counted: 'counted', held: 'held', discounted: 'set aside' } as const;

export const clockTime = (instant: string) => localTimeAt(new Date(instant), siteClock.timeZone).slice(0, 5);

function minuteSummary(minute: IntegrityMinute, options: readonly string[]): string {
  const parts = STACK_ORDER.flatMap((status) => {
    const votes = minute[status].reduce((a, b) => a + b, 0);
    if (votes === 0) return [];
    const byOption = minute[status]
      .flatMap((n, i) => (n > 0 ? [`${options[i] ?? `Option ${i + 1}`} ${n}`] : []))
      .join(', ');
    return [`${votes} ${STATUS_WORD[status]} (${byOption})`];
  });
  return `${clockTime(minute.at)}: ${parts.join('; ')}`;
}

const markName = (mark: IntegrityMark) =>
  `${mark.label ?? 'Every network'} ${mark.state === 'challenge' ? 'challenged' : 'watched'} ${clockTime(mark.from)}–${clockTime(mark.to)}`;

export function MinuteChart({
  minutes,
  marks,
  options,
  from,
  to,
  title,
}: {
  minutes: readonly IntegrityMinute[];
  marks: readonly IntegrityMark[];
  options: readonly string[];
  /** The span shown (instants in ms); by default the first to the last minute with votes. */
  from?: number;
  to?: number;
  /** What the chart is of, for its description: "Votes per minute", "Votes around this burst". */
  title: string;
}) {
  const plot = { width: FRAME.width - FRAME.left - FRAME.right, height: FRAME.height - FRAME.top - FRAME.bottom };
  const chart = minuteChart(minutes, marks, plot, {
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    timeZone: siteClock.timeZone,
  });
  const busiest = chart.bars.reduce<(typeof chart.bars)[number] | undefined>(
    (best, bar) => (!best || bar.total > best.total ? bar : best),
    undefined,
  );
  const description =
    chart.bars.length === 0
      ? `${title}: no votes.`
      : [
          `${title}, ${clockTime(chart.bars[0]?.at ?? '')} to ${clockTime(chart.bars.at(-1)?.at ?? '')}.`,
          busiest ? `Busiest minute ${clockTime(busiest.at)}, ${votesText(busiest.total)}.` : '',
          ...chart.bands.map((band) => `${markName(band.mark)}.`),
        ].join(' ');

  return (
    <svg className="minute-chart" viewBox={`0 0 ${FRAME.width} ${FRAME.height}`} role="img" aria-label={description}>
      <g transform={`translate(${FRAME.left} ${FRAME.top})`}>
        {chart.bands.map((band) => (
          <rect
            key={`${band.mark.label ?? 'all'}-${band.mark.state}-${band.mark.from}`}
            className={`minute-chart__band minute-chart__band--${band.mark.state}`}
            x={band.x}
            y={0}
            width={band.width}
            height={plot.height}
          >
            <title>{markName(band.mark)}</title>
          </rect>
        ))}
        {chart.yTicks.map((tick) => (
          <g key={tick.label}>
            <line className="minute-chart__grid" x1={0} x2={plot.width} y1={tick.at} y2={tick.at} />
            <text className="minute-chart__axis" x={-6} y={tick.at} textAnchor="end" dominantBaseline="middle">
              {tick.label}
            </text>
          </g>
        ))}
        {chart.bars.map((bar) => {
          const minute = minutes.find((m) => m.at === bar.at);
          return (
            <g key={bar.at}>
              {minute && <title>{minuteSummary(minute, options)}</title>}
              {bar.segments.map((segment) => (
                <rect
                  key={`${segment.status}-${segment.option}`}
                  className={`minute-chart__bar minute-chart__bar--${segment.status} ${chartColorClass(segment.option)}`}
                  x={bar.x}
                  y={segment.y}
                  width={bar.width}
                  height={segment.height}
                />
              ))}
            </g>
          );
        })}
        {chart.xTicks.map((tick) => (
          <text key={`${tick.at}`} className="minute-chart__axis" x={tick.at} y={plot.height + 15} textAnchor="middle">
            {tick.label}
          </text>
        ))}
      </g>
    </svg>
  );
}

/** What the colours and shading mean, with each option's colour. */
export function MinuteChartLegend({ options }: { options: readonly string[] }) {
  return (
    <ul className="minute-chart-legend">
      {options.map((option, index) => (
        <li key={option}>
          <span className={`minute-chart-legend__swatch ${chartColorClass(index)}`} aria-hidden="true" />
          {option}
        </li>
      ))}
      <li>
        <span
          className="minute-chart-legend__swatch minute-chart-legend__swatch--held chart-color-0"
          aria-hidden="true"
        />
        Pale: held
      </li>
      <li>
        <span className="minute-chart-legend__swatch minute-chart-legend__swatch--discounted" aria-hidden="true" />
        Grey: set aside
      </li>
      <li>
        <span className="minute-chart-legend__swatch minute-chart-legend__swatch--watch" aria-hidden="true" />
        Watched
      </li>
      <li>
        <span className="minute-chart-legend__swatch minute-chart-legend__swatch--challenge" aria-hidden="true" />
        Challenged
      </li>
    </ul>
  );
}

/** The busiest minutes as a table: the chart's figures for whoever cannot see it. */
export function BusiestMinutes({
  minutes,
  options,
}: {
  minutes: readonly IntegrityMinute[];
  options: readonly string[];
}) {
  const total = (minute: IntegrityMinute) =>
    STACK_ORDER.reduce((sum, status) => sum + minute[status].reduce((a, b) => a + b, 0), 0);
  const busiest = [...minutes].sort((a, b) => total(b) - total(a)).slice(0, 10);
  if (busiest.length === 0) return null;
  return (
    <details className="integrity-details">
      <summary>The busiest minutes as a table</summary>
      <TableFrame
        label="The busiest minutes"
        className="integrity-table"
        columns={['Minute', 'Votes', 'Counted', 'Held', 'Set aside', 'Most chosen']}
      >
        {busiest.map((minute) => {
          const all = options.map((_, i) => STACK_ORDER.reduce((sum, status) => sum + (minute[status][i] ?? 0), 0));
          const top = all.indexOf(Math.max(...all));
          const sum = (status: 'counted' | 'held' | 'discounted') => minute[status].reduce((a, b) => a + b, 0);
          return (
            <tr key={minute.at}>
              <th scope="row">{clockTime(minute.at)}</th>
              <td>{total(minute)}</td>
              <td>{sum('counted')}</td>
              <td>{sum('held')}</td>
              <td>{sum('discounted')}</td>
              <td>{options[top]}</td>
            </tr>
          );
        })}
      </TableFrame>
    </details>
  );
}
