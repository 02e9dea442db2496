// How many reports are Good, Decent, Bad or without a result, as one bar whose words are its
// accessible name: a project's (its page, the projects table) or every project's (the overview).
import '@mantine/core/styles/Progress.css';
import { Box, Progress } from '@mantine/core';
import { RESULTS, RESULT_LABELS } from '@/contract/values';
import type { Result } from '@/contract/values';
import { plural } from '@/lib/plural';

export interface HealthCounts {
  /** Every report, those without a result included. */
  total: number;
  counts: Record<Result, number>;
  /** Reports without a result. */
  unknown: number;
}

const COLORS: Record<Result | 'unknown', string> = {
  good: 'teal',
  decent: 'orange',
  bad: 'red',
  unknown: 'gray',
};

/** "9 Good, 2 Decent, 1 Bad, 1 without a result, of 13 reports": what the bar shows, in words. */
export function healthWords({ total, counts, unknown }: HealthCounts): string {
  const parts = RESULTS.map((result) => `${counts[result].toLocaleString('en')} ${RESULT_LABELS[result]}`);
  if (unknown > 0) parts.push(`${unknown.toLocaleString('en')} without a result`);
  return `${parts.join(', ')}, of ${plural(total, 'report', 'reports')}`;
}

/** The bar alone; its words are its accessible name (the sections themselves say nothing). Nothing without reports. */
export function HealthBar({ health, size = 'md' }: { health: HealthCounts; size?: 'sm' | 'md' | 'xl' }) {
  const { total, counts, unknown } = health;
  if (total === 0) return null;
  const share = (count: number) => (count / total) * 100;
  return (
    <Box role="img" aria-label={healthWords(health)}>
      <Progress.Root size={size} aria-hidden>
        {RESULTS.map((result) => (
          <Progress.Section key={result} value={share(counts[result])} color={COLORS[result]} withAria={false} />
        ))}
        <Progress.Section value={share(unknown)} color={COLORS.unknown} withAria={false} />
      </Progress.Root>
    </Box>
  );
}
