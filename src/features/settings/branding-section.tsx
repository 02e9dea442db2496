// Settings' Branding section (ui-contract.md, Sharing and reporting): the agency's name, accent
// colour and logo, which public report pages, share pages, printed pages and digests carry. Loaded
// only where the deployment has branding.
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/core/styles/ColorPicker.css';
import '@mantine/core/styles/ColorInput.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Skeleton.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, ColorInput, FileInput, Group, Image, Skeleton, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import { ACCENT_PATTERN, BRANDING_MESSAGES, BRANDING_NAME_MAX, LOGO_MAX_BYTES } from '@/contract/branding';
import { brandingQuery, useRemoveLogo, useSetBranding } from '@/api/branding';
import type { Branding } from '@/api/branding';
import { errorMessage } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { ErrorState } from '@/components/error-state';
import { SettingsSection } from './settings-section';

/** What a file's first bytes say it is: PNG, JPEG or WebP, or null (SVG and anything else). */
async function imageTypeOf(file: File): Promise<string | null> {
  const bytes = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  const text = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  if (text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

const brandingFormSchema = z.object({
  name: z.string().check(z.trim(), z.maxLength(BRANDING_NAME_MAX, { error: BRANDING_MESSAGES.nameMax })),
  accent: z.string().check(z.trim(), z.refine((value) => value === '' || ACCENT_PATTERN.test(value), { error: BRANDING_MESSAGES.accent })),
  // Checked as the server checks it, by size and by content, as soon as a file is chosen.
  logo: z.nullable(z.instanceof(File)).check(
    z.refine((file) => !file || file.size <= LOGO_MAX_BYTES, { error: BRANDING_MESSAGES.logoSize }),
    z.refine(async (file) => !file || file.size > LOGO_MAX_BYTES || (await imageTypeOf(file)) !== null, { error: BRANDING_MESSAGES.logoType }),
  ),
});
type BrandingInput = z.input<typeof brandingFormSchema>;
type BrandingValues = z.output<typeof brandingFormSchema>;

/** The chosen file as a data: URL, for its preview (the dashboard's policy allows data: images, not blob:). */
function useDataUrl(file: File | null): string | null {
  const [url, setUrl] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') setUrl({ file, url: reader.result });
    };
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return file && url?.file === file ? url.url : null;
}

function BrandingForm({ branding }: { branding: Branding }) {
  const save = useSetBranding();
  const removeLogo = useRemoveLogo();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    trigger,
    formState: { errors, isSubmitting },
  } = useForm<BrandingInput, unknown, BrandingValues>({
    resolver: zodResolver(brandingFormSchema),
    defaultValues: { name: branding.name ?? '', accent: branding.accent ?? '', logo: null },
  });
  const chosen = useWatch({ control, name: 'logo' }) ?? null;
  const preview = useDataUrl(chosen);

  const onSubmit = async (values: BrandingValues) => {
    try {
      const saved = await save.mutateAsync({ name: values.name, accent: values.accent, logo: values.logo });
      reset({ name: saved.name ?? '', accent: saved.accent ?? '', logo: null });
      notifications.show({ color: 'teal', title: 'Branding saved', message: 'Public pages, share pages and printed pages now carry it.' });
    } catch (error) {
      const { placed } = placeFieldErrors(error, ['name', 'accent', 'logo'] as const, setError);
      if (placed.length === 0) notifications.show({ color: 'red', title: 'Branding not saved', message: errorMessage(error) });
    }
  };

  const onRemoveLogo = () =>
    removeLogo.mutate(undefined, {
      onSuccess: () => notifications.show({ color: 'teal', title: 'Logo removed', message: 'The name and accent colour stay.' }),
      onError: (error) => notifications.show({ color: 'red', title: 'Logo not removed', message: errorMessage(error) }),
    });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Branding">
      <Stack gap="md">
        <TextInput
          label="Name"
          description="Your agency’s name, on top of what your clients see."
          placeholder="e.g. Acme SEO"
          autoComplete="organization"
          maxLength={BRANDING_NAME_MAX + 20}
          error={errors.name?.message}
          {...register('name')}
        />
        <Controller
          control={control}
          name="accent"
          render={({ field }) => (
            <ColorInput
              label="Accent colour"
              description="A bar in this colour runs above the branding (#rrggbb); the text keeps its own colours."
              placeholder="#1c7ed6"
              format="hex"
              withEyeDropper={false}
              popoverProps={{ withinPortal: true }}
              error={errors.accent?.message}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
            />
          )}
        />
        <Stack gap={6}>
          {branding.logo && !chosen && (
            <Group gap="sm" align="center">
              <Image src={branding.logo.dataUrl} alt="Current logo" h={48} w="auto" fit="contain" maw={200} />
              <Button
                type="button"
                variant="default"
                size="xs"
                leftSection={<IconTrash size={14} aria-hidden />}
                loading={removeLogo.isPending}
                onClick={onRemoveLogo}
              >
                Remove logo
              </Button>
            </Group>
          )}
          {chosen && preview && <Image src={preview} alt="New logo preview" h={48} w="auto" fit="contain" maw={200} />}
          <Controller
            control={control}
            name="logo"
            render={({ field }) => (
              <FileInput
                label={branding.logo ? 'New logo' : 'Logo'}
                description="PNG, JPEG or WebP, at most 200 KB. SVG is refused."
                accept="image/png,image/jpeg,image/webp"
                clearable
                clearButtonProps={{ 'aria-label': 'Clear the chosen logo' }}
                leftSection={<IconPhoto size={16} aria-hidden />}
                error={errors.logo?.message}
                value={field.value ?? null}
                onChange={(file) => {
                  field.onChange(file);
                  void trigger('logo');
                }}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
              />
            )}
          />
        </Stack>
        <Group>
          <Button type="submit" loading={isSubmitting}>
            Save branding
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function BrandingSection() {
  const query = useQuery(brandingQuery());
  return (
    <SettingsSection
      section="branding"
      description="Your name, accent colour and logo on public report pages, share pages, printed pages and digests."
    >
      {query.data ? (
        // Mounted with the stored branding, and again when it changes elsewhere (another tab, a removed logo).
        <BrandingForm key={JSON.stringify([query.data.name, query.data.accent])} branding={query.data} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Skeleton h={180} aria-label="Loading the branding" />
      )}
    </SettingsSection>
  );
}
