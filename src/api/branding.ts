// The branding (api-contract.md, Share links and branding): the agency's name, accent colour and
// logo, set in Settings and put on top of every printed page. A printed page cannot wait for a
// request, so the branding is asked once signed in and remembered on the device per base URL for
// an hour, as the capabilities are: a page opened again asks nothing (issue 50's request budget).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { readConnection } from './http/connection';
import { apiRequest } from './http/http';
import { useCapabilities } from './capabilities';

export interface Branding {
  name: string | null;
  /** #rrggbb. */
  accent: string | null;
  logo: { type: string; size: number; url: string; dataUrl: string } | null;
}

const brandingSchema = z.pipe(
  z.object({
    data: z.object({
      name: z.nullish(z.string()),
      accent: z.nullish(z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/))),
      logo: z.nullish(
        z.object({
          type: z.string(),
          size: z.number(),
          url: z.string(),
          // Only an image goes into an <img>: anything else is no logo.
          data_url: z.string().check(z.regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/)),
        }),
      ),
    }),
  }),
  z.transform(
    ({ data }): Branding => ({
      name: data.name ?? null,
      accent: data.accent?.toLowerCase() ?? null,
      logo: data.logo ? { type: data.logo.type, size: data.logo.size, url: data.logo.url, dataUrl: data.logo.data_url } : null,
    }),
  ),
);

/** Whether the branding has anything to show. */
export function hasBranding(branding: Branding | null | undefined): branding is Branding {
  return Boolean(branding && (branding.name !== null || branding.logo !== null || branding.accent !== null));
}

const REMEMBERED_MS = 60 * 60 * 1000;
const STORAGE_KEY = 'webpage-report.branding';

function rememberedFor(baseUrl: string): { at: number; data: Branding } | undefined {
  try {
    const all = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, { at?: unknown; data?: unknown }>;
    const entry = all[baseUrl];
    if (typeof entry?.at !== 'number' || Date.now() - entry.at > REMEMBERED_MS) return undefined;
    // Checked again as an answer would be: what the device kept is input like any other.
    const data = brandingSchema.safeParse({ data: { ...(entry.data as object), logo: rememberedLogo(entry.data) } });
    return data.success ? { at: entry.at, data: data.data } : undefined;
  } catch {
    return undefined;
  }
}

function rememberedLogo(data: unknown): unknown {
  const logo = (data as { logo?: { dataUrl?: unknown } | null } | undefined)?.logo;
  return logo ? { ...logo, data_url: logo.dataUrl } : null;
}

function remember(baseUrl: string, data: Branding): void {
  try {
    const all = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, unknown>;
    all[baseUrl] = { at: Date.now(), data };
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // Asked again next time.
  }
}

export const brandingKeys = { all: () => ['branding'] as const };

export const brandingQuery = () =>
  queryOptions({
    queryKey: brandingKeys.all(),
    queryFn: async ({ signal }) => {
      const data = await apiRequest({ path: ['branding'], signal }, brandingSchema);
      remember(readConnection().baseUrl, data);
      return data;
    },
    initialData: () => rememberedFor(readConnection().baseUrl)?.data,
    initialDataUpdatedAt: () => rememberedFor(readConnection().baseUrl)?.at,
    staleTime: REMEMBERED_MS,
  });

/** The branding where the deployment has it (null until known, or without the extension). */
export function useBranding(): Branding | null {
  const enabled = useCapabilities().capabilities?.branding === true;
  return useQuery({ ...brandingQuery(), enabled }).data ?? null;
}

function useBrandingMutation<V>(send: (vars: V) => Promise<Branding>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (data) => {
      queryClient.setQueryData(brandingKeys.all(), data);
      remember(readConnection().baseUrl, data);
    },
  });
}

/** PUT /branding: the name and accent ('' clears them), and a new logo if one is given. */
export function useSetBranding() {
  return useBrandingMutation((input: { name: string; accent: string; logo: File | null }) => {
    const form = new FormData();
    form.append('name', input.name);
    form.append('accent', input.accent);
    if (input.logo) form.append('logo', input.logo);
    return apiRequest({ method: 'PUT', path: ['branding'], multipart: form }, brandingSchema);
  });
}

/** DELETE /branding/logo. */
export function useRemoveLogo() {
  return useBrandingMutation(() => apiRequest({ method: 'DELETE', path: ['branding', 'logo'] }, brandingSchema));
}
