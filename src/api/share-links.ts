// Share links (api-contract.md, Share links; where the server has `share_links`): making one (its
// address shown once), the links not revoked, and revoking one. Apart from the other resources, so
// that only the Share dialog and the settings page's Share links section download it.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest } from './http/http';
import { pageSchema, reportFields } from './lenient-schemas';
import type { Page } from '@/contract/domain';

export interface ShareLink {
  id: number;
  label: string | null;
  /** `report:<id>`, `project:<name>` or `compare:<id>:<run>:<run>` (src/contract/share-target.ts). */
  target: string;
  createdAt: Date | null;
  /** null: never. */
  expiresAt: Date | null;
  password: boolean;
  views: number;
  lastViewedAt: Date | null;
}

export interface NewShareLink extends ShareLink {
  /** The link's address: in this answer only. */
  url: string;
}

const shareLinkObject = z.object({
  id: reportFields.id,
  label: z.nullish(z.string()),
  target: z.string(),
  created_at: reportFields.created_at,
  expires_at: reportFields.created_at,
  password: z.boolean(),
  views: z.number(),
  last_viewed_at: reportFields.created_at,
});
type ShareLinkFields = z.output<typeof shareLinkObject>;
const toShareLink = (l: ShareLinkFields): ShareLink => ({
  id: l.id,
  label: l.label ?? null,
  target: l.target,
  createdAt: l.created_at,
  expiresAt: l.expires_at,
  password: l.password,
  views: l.views,
  lastViewedAt: l.last_viewed_at,
});

const shareLinkPageSchema = z.pipe(
  pageSchema(shareLinkObject),
  z.transform((page: Page<ShareLinkFields>): Page<ShareLink> => ({ ...page, items: page.items.map(toShareLink) })),
);
const newShareLinkSchema = z.pipe(
  z.object({ data: z.extend(shareLinkObject, { url: z.string().check(z.minLength(1)) }) }),
  z.transform(({ data }: { data: ShareLinkFields & { url: string } }): NewShareLink => ({ ...toShareLink(data), url: data.url })),
);
const anyBody = z.unknown();

/** Links per page of the settings page's list. */
export const SHARE_LINKS_PER_PAGE = 25;

export const shareLinkKeys = {
  all: () => ['share-links'] as const,
  lists: () => [...shareLinkKeys.all(), 'list'] as const,
};

export const shareLinkQueries = {
  list: (page: number) =>
    queryOptions({
      queryKey: [...shareLinkKeys.lists(), page] as const,
      queryFn: ({ signal }) =>
        apiRequest({ path: ['share-links'], query: { page, per_page: SHARE_LINKS_PER_PAGE }, signal }, shareLinkPageSchema),
    }),
};

export interface ShareLinkInput {
  target: string;
  /** null: never. */
  expiresInDays: number | null;
  password: string;
  label: string;
}

/** POST /share-links; the answer carries the address, which is shown once and kept nowhere. */
export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ShareLinkInput) =>
      apiRequest(
        {
          method: 'POST',
          path: ['share-links'],
          form: {
            target: input.target,
            expires_in_days: input.expiresInDays,
            password: input.password || null,
            label: input.label.trim() || null,
          },
        },
        newShareLinkSchema,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.lists() }),
  });
}

/** DELETE /share-links/{id}: the link's page answers 404 from then on. */
export function useRevokeShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: number) => apiRequest({ method: 'DELETE', path: ['share-links', linkId] }, anyBody),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.lists() }),
  });
}
