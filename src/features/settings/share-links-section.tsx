// Settings' Share links section (ui-contract.md, Sharing and reporting): every link not revoked, with
// its target, label, expiry, views and last view, and Revoke (after a confirmation). Loaded only
// where the deployment has share links.
import { Anchor, Badge, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useCapabilities } from '@/api/capabilities';
import { reportQueries } from '@/api/reports';
import { SHARE_LINKS_PER_PAGE, shareLinkQueries, useRevokeShareLink, type ShareLink } from '@/api/share-links';
import { parseShareTarget } from '@/contract/share-target';
import { compareHref } from '@/lib/compare-runs';
import { DataTable } from '@/components/data-table';
import { DateText } from '@/components/date-text';
import { ListPagination, useClampPage } from '@/components/list-pagination';
import { ConfirmedButton } from '@/components/confirmed-button';
import { RoleGate } from '@/components/role-gate';
import { QueryStates } from './query-states';
import { SettingsSection } from './settings-section';

/** The link's target in words (a report by its URL where known), and where it is in the dashboard. */
function targetOf(link: ShareLink, urls: ReadonlyMap<number, string>): { text: string; href: string | null } {
  const target = parseShareTarget(link.target);
  if (!target) return { text: link.target, href: null };
  if (target.kind === 'project') return { text: `Project ${target.project}`, href: `/projects/${encodeURIComponent(target.project)}` };
  const url = urls.get(target.reportId);
  if (target.kind === 'report') return { text: url ?? `Report ${target.reportId}`, href: `/reports/${target.reportId}` };
  return {
    text: url ? `Comparison of ${url}` : `Comparison of report ${target.reportId}`,
    href: compareHref(target.reportId, new Date(target.before), new Date(target.after)),
  };
}

/** The ids of the reports the links name (a report or a comparison of one). */
function reportIdsOf(links: readonly ShareLink[]): number[] {
  const ids = links.flatMap((link) => {
    const target = parseShareTarget(link.target);
    return target && target.kind !== 'project' ? [target.reportId] : [];
  });
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * The URLs of the reports a page of links names, in one request where the deployment takes a list of
 * ids (ids_filter); an empty map until then, or elsewhere (the links then say "Report 12").
 */
function useReportUrls(links: readonly ShareLink[] | undefined): ReadonlyMap<number, string> {
  const { capabilities } = useCapabilities();
  const ids = reportIdsOf(links ?? []);
  const reports = useQuery({
    ...reportQueries.list({ ids: ids.join(','), per_page: SHARE_LINKS_PER_PAGE }),
    enabled: capabilities?.ids_filter === true && ids.length > 0,
  });
  return new Map((reports.data?.items ?? []).map((report) => [report.id, report.url]));
}

/** What the person calls the link in the confirmation and the Revoke button's name. */
function linkName(link: ShareLink, urls: ReadonlyMap<number, string>): string {
  return link.label ?? targetOf(link, urls).text;
}

function LinkRow({ link, now, urls }: { link: ShareLink; now: number; urls: ReadonlyMap<number, string> }) {
  const revoke = useRevokeShareLink();
  const target = targetOf(link, urls);
  const expired = link.expiresAt !== null && link.expiresAt.getTime() <= now;
  const onRevoke = (close: () => void) =>
    revoke.mutate(link.id, {
      onSuccess: () => {
        close();
        notifications.show({ color: 'teal', title: 'Link revoked', message: `The link “${linkName(link, urls)}” no longer opens anything.` });
      },
    });
  return (
    <tr>
      <td style={{ overflowWrap: 'anywhere' }}>
        {target.href ? (
          <Anchor component={Link} to={target.href}>
            {target.text}
          </Anchor>
        ) : (
          target.text
        )}
        {link.password && (
          <Badge variant="light" color="gray" c="var(--mantine-color-text)" tt="none" ml={6}>
            Password
          </Badge>
        )}
      </td>
      <td data-label="Label" style={{ overflowWrap: 'anywhere' }}>
        {link.label ?? <Text span c="dimmed" size="sm">None</Text>}
      </td>
      <td data-label="Expires">
        {link.expiresAt === null ? 'Never' : expired ? <>Expired <DateText date={link.expiresAt} /></> : <DateText date={link.expiresAt} />}
      </td>
      <td data-label="Views">{link.views}</td>
      <td data-label="Last viewed">
        {link.lastViewedAt ? <DateText date={link.lastViewedAt} /> : <Text span c="dimmed" size="sm">Never</Text>}
      </td>
      <td>
        <RoleGate>
          <ConfirmedButton
            label="Revoke"
            name={`Revoke link ${linkName(link, urls)}`}
            title={`Revoke the link “${linkName(link, urls)}”?`}
            message={<Text size="sm">Whoever has it sees “not found” from now on. This cannot be undone.</Text>}
            action={revoke}
            onConfirm={onRevoke}
          />
        </RoleGate>
      </td>
    </tr>
  );
}

export default function ShareLinksSection() {
  const [page, setPage] = useState(1);
  const links = useQuery({ ...shareLinkQueries.list(page), placeholderData: keepPreviousData });
  useClampPage(page, links.data?.meta, setPage);
  const urls = useReportUrls(links.data?.items);
  const [now] = useState(() => Date.now());
  return (
    <SettingsSection
      section="share-links"
      description="Links made with Share on a report, a History comparison or a project. Anyone with one sees that page without a key until it expires or you revoke it."
    >
      <QueryStates
        query={links}
        what="share links"
        isEmpty={(data) => data.meta.total === 0}
        empty="No share links yet."
      >
        {(data) => (
          <>
            <DataTable aria-label="Share links" minWidth={640} verticalSpacing="xs" stackOnPhone>
              <thead>
                <tr>
                  <th scope="col">Target</th>
                  <th scope="col">Label</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Views</th>
                  <th scope="col">Last viewed</th>
                  <th scope="col">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((link) => (
                  <LinkRow key={link.id} link={link} now={now} urls={urls} />
                ))}
              </tbody>
            </DataTable>
            <ListPagination meta={data.meta} noun="share links" page={page} onPage={setPage} disabled={links.isPlaceholderData} withRange={data.meta.lastPage > 1} />
          </>
        )}
      </QueryStates>
    </SettingsSection>
  );
}
