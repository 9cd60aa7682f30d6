/**
 * The weighted line, fetched when first shown: only once voting has closed does a poll carry
 * one, so today's card before the close (a first visit) loads none of it.
 */
import { Suspense, type ComponentProps } from 'react';
import { lazyPart } from '../../lib/lazy-part.js';
import type WeightedLineType from './weighted-line.js';

const WeightedLine = lazyPart('components/chart/weighted-line.tsx', () => import('./weighted-line.js'));

export function LazyWeightedLine(props: ComponentProps<typeof WeightedLineType>) {
  if (!props.weighted) return null;
  return (
    <Suspense fallback={null}>
      <WeightedLine {...props} />
    </Suspense>
  );
}
