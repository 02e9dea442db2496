// Before creating: is there a report of this URL already? Asked once the person stops typing, by the
// exact-URL lookup (src/api/exact-url.ts: the same URL after the contract's normalisation, among all
// reports, not only the newest), and said with a way to open it or refresh it instead.
import { Alert, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorMessage } from '@/api/http/errors';
import { useCapabilities } from '@/api/capabilities';
import { exactReportQuery } from '@/api/exact-url';
import { useUpdateReport } from '@/api/reports-mutations';
import { DateText } from '@/components/date-text';
import { urlProblem } from './create-report-schema';

const TYPING_PAUSE_MS = 400;

export function ExistingReport({ url, disabled }: { url: string; disabled: boolean }) {
  const navigate = useNavigate();
  // Not Mantine's useDebouncedValue: it starts with the value at mount, which is asked at once, while
  // the person is still typing (this part mounts with the first character).
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSettled(url.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [url]);
  const checkable = settled !== '' && urlProblem(settled) === null;
  const { capabilities } = useCapabilities();
  const { data } = useQuery({
    ...exactReportQuery(settled, capabilities?.url_filter ?? false),
    // Which way to ask depends on the deployment: wait for its answer (asked once per connection).
    enabled: checkable && capabilities !== null,
  });
  const refresh = useUpdateReport();
  const existing = checkable && url.trim() === settled ? (data ?? undefined) : undefined;
  if (!existing) return null;

  const refreshIt = () =>
    refresh.mutate(
      { id: existing.id, refreshResults: true },
      {
        onSuccess: (report) => {
          notifications.show({ color: 'teal', title: 'Results refreshed', message: report.url });
          void navigate(`/reports/${report.id}`);
        },
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'The results were not refreshed',
            message: errorMessage(error),
          }),
      },
    );

  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconInfoCircle aria-hidden />}
      title="A report of this URL exists"
    >
      <Text size="sm">
        Created <DateText date={existing.createdAt} />, in {existing.project}. Open it, or refresh its results
        instead of creating another (creating another stays possible).
      </Text>
      <Group gap="xs" mt="xs">
        <Button component={Link} to={`/reports/${existing.id}`} variant="default" size="xs">
          Open report
        </Button>
        <Button size="xs" variant="light" onClick={refreshIt} loading={refresh.isPending} disabled={disabled}>
          Refresh it instead
        </Button>
      </Group>
    </Alert>
  );
}
