import '@mantine/core/styles/SemiCircleProgress.css';
import '@mantine/core/styles/DataList.css';
import {
  Anchor,
  Box,
  DataList,
  Group,
  SemiCircleProgress,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { resultForScore } from '@/contract/values';
import type { Result } from '@/contract/values';
import type { Report } from '@/contract/domain';
import { DateText } from '@/components/date-text';
import { PrivacyBadge } from '@/components/privacy-badge';
import { ResultBadge } from '@/components/result-badge';
import { openPageHref } from '@/lib/urls';
import classes from './report-page.module.css';
import { UrlText } from '@/components/url-text';

const GAUGE_COLOURS: Record<Result, string> = { good: 'teal.7', decent: 'orange.6', bad: 'red.7' };

/** The project's own page. */
export function projectHref(project: string): string {
  return `/projects/${encodeURIComponent(project)}`;
}

// A gauge rather than Mantine's RingProgress: that one wraps each arc in a floating tooltip, which
// brings floating-ui (about 20 KB gzip) into the page for a tooltip that is never shown.
function ScoreGauge({ score, result }: { score: number; result: Result | null }) {
  const shown = Math.round(score * 10) / 10;
  return (
    <Box role="img" aria-label={`Score ${shown} of 100`} style={{ flex: 'none' }}>
      <SemiCircleProgress
        aria-hidden
        value={Math.min(100, Math.max(0, score))}
        size={128}
        thickness={12}
        filledSegmentColor={GAUGE_COLOURS[result ?? resultForScore(score)]}
        labelPosition="bottom"
        label={
          <Stack gap={0} align="center" component="span">
            <Text span fw={700} fz={26} lh={1}>
              {shown}
            </Text>
            <Text span size="xs" c="dimmed">
              of 100
            </Text>
          </Stack>
        }
      />
    </Box>
  );
}

/**
 * The report's URL as the page heading, the way to open it, and its facts at a glance; `action`
 * (Analyse again) under the score. The way back to the list is above it (trail-nav.tsx).
 */
export function ReportHeader({ report, action }: { report: Report; action?: ReactNode }) {
  const href = openPageHref(report.url);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'break-word' }}>
            <UrlText url={report.url} />
          </Title>
          {href && (
            <Anchor
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              className="tap-target"
              style={{ alignSelf: 'flex-start' }}
            >
              <Group gap={4} component="span">
                Open page
                <IconExternalLink size={14} aria-hidden />
                <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
              </Group>
            </Anchor>
          )}
        </Stack>
        <Stack gap="xs" align="center" style={{ flex: 'none' }}>
          {report.score !== null && <ScoreGauge score={report.score} result={report.result} />}
          {action}
        </Stack>
      </Group>
      <DataList
        className={classes.details}
        size="sm"
        gap={6}
        labelWidth="7rem"
        aria-label="Report details"
        styles={{ itemValue: { minWidth: 0, overflowWrap: 'anywhere' } }}
      >
        <DataList.Item>
          <DataList.ItemLabel>Project</DataList.ItemLabel>
          <DataList.ItemValue>
            <Anchor component={Link} to={projectHref(report.project)} size="sm" className="tap-target">
              {report.project}
            </Anchor>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Result</DataList.ItemLabel>
          <DataList.ItemValue>
            <ResultBadge result={report.result} />
          </DataList.ItemValue>
        </DataList.Item>
        {report.score === null && (
          <DataList.Item>
            <DataList.ItemLabel>Score</DataList.ItemLabel>
            <DataList.ItemValue>
              <Text span size="sm" c="dimmed">
                Not given by the service
              </Text>
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Privacy</DataList.ItemLabel>
          <DataList.ItemValue>
            <PrivacyBadge privacy={report.privacy} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Generated</DataList.ItemLabel>
          <DataList.ItemValue>
            <DateText date={report.generatedAt} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Created</DataList.ItemLabel>
          <DataList.ItemValue>
            <DateText date={report.createdAt} sameAs={report.generatedAt} sameAsLabel="Generated" />
          </DataList.ItemValue>
        </DataList.Item>
      </DataList>
    </Stack>
  );
}
