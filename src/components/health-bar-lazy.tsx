// The health bar (Mantine's Progress) after the words: a table's first paint is its numbers and
// names, the bars follow with their space kept meanwhile (the overview, the projects table).
import { Suspense, lazy } from 'react';
import type { HealthCounts } from './health-bar';

const LazyHealthBar = lazy(() => import('./health-bar').then((m) => ({ default: m.HealthBar })));

export function HealthBarLazy({ health, size = 'md' }: { health: HealthCounts; size?: 'sm' | 'md' }) {
  return (
    <Suspense fallback={<div style={{ height: size === 'sm' ? 6 : 8 }} />}>
      <LazyHealthBar health={health} size={size} />
    </Suspense>
  );
}
