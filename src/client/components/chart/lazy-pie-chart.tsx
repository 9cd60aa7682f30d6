/** The pie, fetched when first shown; a same-sized placeholder holds its place meanwhile. */
import { Suspense } from 'react';
import type { PieChartProps } from './pie-chart.js';
import { lazyPart } from '../../lib/lazy-part.js';

const PieChart = lazyPart('components/chart/pie-chart.tsx', () => import('./pie-chart.js'));

export function LazyPieChart(props: PieChartProps) {
  return (
    <Suspense fallback={<div className="pie-chart-placeholder skeleton" aria-hidden="true" />}>
      <PieChart {...props} />
    </Suspense>
  );
}
