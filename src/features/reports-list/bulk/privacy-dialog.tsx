// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/PasswordInput.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { Controller, useForm, useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from '@/contract/values';
import type { Privacy } from '@/contract/values';
import { PrivacyField } from '@/components/privacy-field';
import { useReturnFocus } from '@/components/use-return-focus';

const PRIVACY_CHOICES = ['0', '1', '2'] as const;

const privacySchema = z
  .object({ privacy: z.enum(PRIVACY_CHOICES), password: z.string() })
  .check((ctx) => {
    const { privacy, password } = ctx.value;
    if (privacy !== '2') return;
    if (password === '')
      ctx.issues.push({
        code: 'custom',
        message: 'Enter the password that will protect these reports.',
        input: password,
        path: ['password'],
      });
    else if ([...password].length > PASSWORD_MAX_LENGTH)
      ctx.issues.push({
        code: 'custom',
        message: `The password can be at most ${PASSWORD_MAX_LENGTH} characters long.`,
        input: password,
        path: ['password'],
      });
  });

type PrivacyValues = z.output<typeof privacySchema>;

export interface PrivacyDialogProps {
  opened: boolean;
  count: number;
  onApply: (privacy: Privacy, password: string | undefined) => void;
  onCancel: () => void;
}

/** Change privacy of the selected reports: one privacy, and for Password one password, for all. */
export function PrivacyDialog({ opened, count, onApply, onCancel }: PrivacyDialogProps) {
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors },
  } = useForm<PrivacyValues>({
    resolver: zodResolver(privacySchema),
    defaultValues: { privacy: '1', password: '' },
  });
  const privacy = useWatch({ control, name: 'privacy' });
  useReturnFocus(opened);
  const noun = count === 1 ? 'report' : 'reports';
  const close = () => {
    reset();
    onCancel();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      returnFocus={false}
      title={`Change privacy of ${count.toLocaleString('en')} ${noun}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700 } }}
    >
      <form
        noValidate
        onSubmit={(event) =>
          void handleSubmit((values) => {
            reset();
            onApply(Number(values.privacy) as Privacy, values.privacy === '2' ? values.password : undefined);
          })(event)
        }
      >
        <Stack gap="md">
          <Controller
            control={control}
            name="privacy"
            render={({ field }) => <PrivacyField field={field} error={errors.privacy?.message} layout="stack" />}
          />
          {privacy === '2' && (
            <PasswordInput
              label="Password"
              description={`One password for all ${count.toLocaleString('en')} ${noun}, replacing any they have; at most ${PASSWORD_MAX_LENGTH} characters.`}
              autoComplete="new-password"
              withAsterisk
              error={errors.password?.message}
              {...register('password')}
            />
          )}
          <Text size="sm" c="dimmed">
            The change is sent report by report, paced to the service’s rate limit; you can cancel it.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit">Apply</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
