// "Changed since last run", under the score: one short line, "Score 72 → 64 since 3 Nov (2 checks
// newly failing)", that leads to History's comparison. Its code and the runs it reads arrive after
// the report's first paint (with the History's); its room is kept meanwhile, so nothing below moves.
import { Text } from '@mantine/core';
import { Suspense, lazy } from 'react';
import type { Report } from '@/contract/domain';

const LastChangeLink = lazy(() => import('./last-change-link'));

/** For a report whose server keeps more than one run (History's condition). */
export function LastChange({ report }: { report: Report }) {
  return (
    // As wide as the gauge on a phone (the heading keeps its width), where up to three lines are
    // kept for it; one line beside a desktop's wide heading.
    <Text size="xs" ta="center" lh={1.35} maw={{ base: 128, sm: '24rem' }} mih={{ base: '3lh', sm: '1lh' }}>
      <Suspense fallback={null}>
        <LastChangeLink report={report} />
      </Suspense>
    </Text>
  );
}
