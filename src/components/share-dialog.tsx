// The Share dialog (ui-contract.md, Sharing and reporting): Expires, Password (optional) and Label;
// Create makes the link and shows it this once with Copy. Loaded by ShareButton on first use.
// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NativeSelect, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { errorMessage } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { useCreateShareLink, type NewShareLink } from '@/api/share-links';
import { PASSWORD_MAX_LENGTH, passwordLength } from '@/contract/values';
import { CopyField } from './copy-field';
import { SHARE_EXPIRY_CHOICES, SHARE_LABEL_MAX } from '@/contract/share-target';
import { useReturnFocus } from './use-return-focus';

const EXPIRY_WORDS: Record<string, string> = { '1': '1 day', '7': '7 days', '30': '30 days', '365': '1 year', never: 'Never' };
const EXPIRY_OPTIONS = SHARE_EXPIRY_CHOICES.map((days) => {
  const value = days === null ? 'never' : String(days);
  return { value, label: EXPIRY_WORDS[value] ?? value };
});

const shareFormSchema = z.object({
  expires: z.string(),
  password: z.string().check(
    z.refine((value) => passwordLength(value) <= PASSWORD_MAX_LENGTH, { error: `At most ${PASSWORD_MAX_LENGTH} characters.` }),
  ),
  label: z.string().check(z.refine((value) => [...value.trim()].length <= SHARE_LABEL_MAX, { error: `At most ${SHARE_LABEL_MAX} characters.` })),
});
type ShareFormValues = z.output<typeof shareFormSchema>;

export interface ShareDialogProps {
  /** `report:<id>`, `project:<name>` or `compare:<id>:<run>:<run>`. */
  target: string;
  /** What is shared, in words: "this report", "this comparison", "this project". */
  what: string;
  onClose: () => void;
}

function LinkOnce({ link, onDone }: { link: NewShareLink; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title="Copy the link now" aria-live="polite">
        It is shown this once: only a fingerprint of it is kept. Revoke it in Settings, Share links.
      </Alert>
      <CopyField label="Link" value={link.url} autoFocus />
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

export function ShareDialog({ target, what, onClose }: ShareDialogProps) {
  useReturnFocus(true);
  const create = useCreateShareLink();
  const [made, setMade] = useState<NewShareLink | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ShareFormValues>({ resolver: zodResolver(shareFormSchema), defaultValues: { expires: '7', password: '', label: '' } });

  const onSubmit = (values: ShareFormValues) =>
    create
      .mutateAsync(
        { target, expiresInDays: values.expires === 'never' ? null : Number(values.expires), password: values.password, label: values.label },
        {
          onSuccess: (link) => {
            setMade(link);
            notifications.show({ color: 'teal', title: 'Link created', message: `Anyone with the link can see ${what}.` });
          },
          onError: (error) => {
            const { placed } = placeFieldErrors(error, ['password', 'label'] as const, setError);
            if (placed.length === 0) notifications.show({ color: 'red', title: 'Link not created', message: errorMessage(error) });
          },
        },
      )
      .catch(() => undefined);

  const close = () => {
    if (!create.isPending) onClose();
  };
  return (
    <Modal opened onClose={close} returnFocus={false} title={`Share ${what}`} centered closeButtonProps={{ 'aria-label': 'Close' }} styles={{ title: { fontWeight: 700 } }}>
      {made ? (
        <LinkOnce link={made} onDone={onClose} />
      ) : (
        <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label={`Share ${what}`}>
          <Stack gap="sm">
            <Text size="sm">Anyone with the link sees {what} without an API key, until it expires or is revoked.</Text>
            <NativeSelect label="Expires" data={EXPIRY_OPTIONS} {...register('expires')} data-autofocus />
            <PasswordInput
              label="Password"
              description="Optional: the page asks for it first."
              autoComplete="new-password"
              error={errors.password?.message}
              {...register('password')}
            />
            <TextInput label="Label" description="Optional: who the link is for." maxLength={SHARE_LABEL_MAX} error={errors.label?.message} {...register('label')} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={create.isPending}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create link
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
