// The address of the report's public page, to copy and share, and what a visitor meets there.
import { Stack, Text } from '@mantine/core';
import { readConnection } from '@/api/http/connection';
import { CopyField } from '@/components/copy-field';
import type { Privacy } from '@/contract/values';
import { readReportPageTemplate, reportPageAddress } from '@/lib/report-link';
import type { Report } from '@/contract/domain';

const VISITORS: Record<Privacy, string> = {
  0: 'Public: anyone with the link sees the report.',
  1: 'Private: visitors get a “not found” page that reveals nothing.',
  2: 'Password: visitors are asked for the password first.',
};

export function ReportLink({ report }: { report: Report }) {
  const address = reportPageAddress(report, readConnection().baseUrl, readReportPageTemplate());
  if (address === null) {
    return (
      <Text size="sm" c="dimmed">
        The service does not say where this report’s public page is. Set its address in Settings (Report page
        address).
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <CopyField label="Report link" value={address} copyLabel="Copy link" />
      <Text size="sm" c="dimmed" aria-live="polite">
        {VISITORS[report.privacy]}
      </Text>
    </Stack>
  );
}
