/** The pie, fetched when first shown; a same-sized placeholder holds its place meanwhile. */
import { lazy, Suspense } from 'react';
import type { PieChartProps } from './pie-chart.js';

const PieChart = lazy(() => import('./pie-chart.js'));

export function LazyPieChart(props: PieChartProps) {
  return (
    <Suspense fallback={<div className="pie-chart-placeholder skeleton" aria-hidden="true" />}>
      <PieChart {...props} />
    </Suspense>
  );
}
