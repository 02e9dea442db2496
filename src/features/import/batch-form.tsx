// Add many's batch form, under the preview: the privacy (and password) of every report it creates,
// whether the Already reported URLs are refreshed, and Create, which asks first for more than 10
// reports (the one rule of src/lib/quota.ts).
// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Switch.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack, Switch, Text } from '@mantine/core';
import { Suspense, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { ImportBatch, ImportTask } from '@/workflows/use-import-run';
import { LazyConfirmDialog, loadConfirmDialog } from '@/components/lazy-confirm-dialog';
import { PrivacyField } from '@/components/privacy-field';
import { plural } from '@/lib/plural';
import { asksBeforeAnalysing } from '@/lib/quota';
import { BATCH_DEFAULTS, batchSchema, batchTasks, toBatch } from './batch-schema';
import type { BatchFormInput, BatchFormValues } from './batch-schema';
import { countByStatus } from './classify';
import type { NearChoice, PreviewRow } from './classify';

/** What the batch does, in words: "Create 110 reports", "Create 3 reports and refresh 12", "Refresh 12 reports". */
function batchWords(creates: number, refreshes: number): string {
  if (creates === 0 && refreshes > 0) return `Refresh ${plural(refreshes, 'report', 'reports')}`;
  const create = `Create ${plural(creates, 'report', 'reports')}`;
  return refreshes > 0 ? `${create} and refresh ${refreshes.toLocaleString('en')}` : create;
}

export interface BatchFormProps {
  rows: readonly PreviewRow[];
  /** What to do with each line that is probably the same as another (by line; Skip when absent). */
  choices: ReadonlyMap<number, NearChoice>;
  onStart: (tasks: ImportTask[], batch: Omit<ImportBatch, 'urlFilter'>) => void;
}

export function BatchForm({ rows, choices, onStart }: BatchFormProps) {
  const {
    register,
    handleSubmit,
    control,
    clearErrors,
    formState: { errors },
  } = useForm<BatchFormInput, unknown, BatchFormValues>({
    resolver: zodResolver(batchSchema),
    defaultValues: BATCH_DEFAULTS,
    // A password's error goes as soon as it is typed in again, and comes back only on Create.
    reValidateMode: 'onSubmit',
  });
  const privacy = useWatch({ control, name: 'privacy' });
  const refresh = useWatch({ control, name: 'refresh' });
  const counts = countByStatus(rows);
  const tasks = batchTasks(rows, refresh, choices);
  const createCount = tasks.filter((task) => task.action === 'create').length;
  const refreshCount = tasks.length - createCount;

  // The values of a Create that waits for its confirmation.
  const [asking, setAsking] = useState<BatchFormValues | null>(null);
  const start = (values: BatchFormValues) => onStart(batchTasks(rows, values.refresh, choices), toBatch(values));
  const submit = (values: BatchFormValues) => {
    if (asksBeforeAnalysing(tasks.length)) setAsking(values);
    else start(values);
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label="Create the reports">
      <Stack gap="md">
        <Controller
          control={control}
          name="privacy"
          render={({ field }) => <PrivacyField field={field} layout="row" />}
        />
        {privacy === '2' && (
          <PasswordInput
            label="Password"
            description="Protects every report of this batch."
            autoComplete="new-password"
            withAsterisk
            maw={360}
            error={errors.password?.message}
            {...register('password', { onChange: () => clearErrors('password') })}
          />
        )}
        {/* No Switch description: Mantine puts it inside the label, and so in the switch's name. */}
        <div>
          <Controller
            control={control}
            name="refresh"
            render={({ field: { value, onChange, ...field } }) => (
              <Switch
                {...field}
                label="Refresh existing reports instead"
                aria-describedby="import-refresh-hint"
                disabled={counts.already === 0}
                checked={value}
                onChange={(event) => onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Text id="import-refresh-hint" size="xs" c="dimmed" mt={4}>
            The Already reported URLs get their results refreshed; otherwise they are left alone.
          </Text>
        </div>
        <Group justify="flex-end">
          <Button
            type="submit"
            disabled={tasks.length === 0}
            onPointerEnter={() => void loadConfirmDialog()}
            onFocus={() => void loadConfirmDialog()}
          >
            {`Create ${plural(createCount, 'report', 'reports')}`}
            {refreshCount > 0 && `, refresh ${refreshCount.toLocaleString('en')}`}
          </Button>
        </Group>
      </Stack>
      {asking && (
        <Suspense fallback={null}>
          <LazyConfirmDialog
            opened
            title={`${batchWords(createCount, refreshCount)}?`}
            confirmLabel={batchWords(createCount, refreshCount)}
            confirmColor="blue"
            pending={false}
            onCancel={() => setAsking(null)}
            onConfirm={() => {
              setAsking(null);
              start(asking);
            }}
          >
            Each one is an analysis of its page by the service, one after another within its rate limit: a
            batch this size takes a while. It can be cancelled as it goes; what is done stays done.
          </LazyConfirmDialog>
        </Suspense>
      )}
    </form>
  );
}
