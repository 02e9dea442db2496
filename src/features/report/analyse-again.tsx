// Analyse again, beside the score: the same refresh as the settings form's switch, in one click
// (ui-contract.md, Triage). The page shows its progress and what changed, as for the form's.
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '@/api/http/errors';
import { useUpdateReport } from '@/api/reports-mutations';
import type { Report } from '@/contract/domain';
import { RESULT_LABELS } from '@/contract/values';

export interface AnalyseAgainProps {
  report: Report;
  /** A refresh of this report is under way (from here or the settings form). */
  running: boolean;
  onStart: () => void;
  onDone: (before: Report, after: Report) => void;
  onFailed: () => void;
}

function outcomeText(before: Report, after: Report): string {
  const score = after.score === null ? null : before.score === null || before.score === after.score ? `score ${after.score}` : `score ${before.score} → ${after.score}`;
  const parts = [score, after.result === null ? null : RESULT_LABELS[after.result]].filter(Boolean);
  return parts.length > 0 ? `Analysed again: ${parts.join(', ')}.` : 'Analysed again.';
}

export function AnalyseAgain({ report, running, onStart, onDone, onFailed }: AnalyseAgainProps) {
  const update = useUpdateReport();
  const analyse = () => {
    if (running || update.isPending) return;
    const before = report;
    onStart();
    update.mutate(
      { id: report.id, refreshResults: true },
      {
        onSuccess: (after) => {
          onDone(before, after);
          notifications.show({ color: 'teal', title: 'Page analysed again', message: outcomeText(before, after) });
        },
        onError: (error) => {
          onFailed();
          notifications.show({ color: 'red', title: 'Not analysed again', message: errorMessage(error) });
        },
      },
    );
  };
  return (
    // No wider than the score's gauge above it (128 px), so that a phone's heading keeps its width.
    <Button variant="default" size="sm" px={8} maw={128} loading={running || update.isPending} onClick={analyse}>
      Analyse again
    </Button>
  );
}
