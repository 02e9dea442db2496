// Before creating: is there a report of this URL already? Asked once the person stops typing (one
// list request, searching by URL), and said with a way to open it or refresh it instead.
import { Alert, Button, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { errorMessage } from '@/api/errors';
import { reportQueries } from '@/api/reports';
import { useUpdateReport } from '@/api/reports-mutations';
import { DateText } from '@/components/date-text';
import { urlProblem } from './create-report-schema';

const TYPING_PAUSE_MS = 400;

export function ExistingReport({ url, disabled }: { url: string; disabled: boolean }) {
  const navigate = useNavigate();
  const [settled] = useDebouncedValue(url.trim(), TYPING_PAUSE_MS);
  const checkable = settled !== '' && urlProblem(settled) === null;
  const { data } = useQuery({
    ...reportQueries.list({ search: settled, search_by: 'url', per_page: 25 }),
    enabled: checkable,
    placeholderData: undefined,
  });
  const refresh = useUpdateReport();
  // The search matches any URL containing the text; only the same URL counts.
  const existing =
    checkable && url.trim() === settled ? data?.items.find((report) => report.url === settled) : undefined;
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
