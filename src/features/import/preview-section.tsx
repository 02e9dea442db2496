// Add many's preview and its batch form: loaded once a preview is asked for, so that the page's
// first visit carries neither (nor react-hook-form) and stays within the size budget.
import { Paper, Stack, Title } from '@mantine/core';
import { BatchForm } from './batch-form';
import type { BatchFormProps } from './batch-form';
import { ImportPreview } from './import-preview';

export function PreviewSection({ rows, onStart }: BatchFormProps) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label="Preview">
      <Stack gap="md">
        <Title order={2} size="h3">
          Preview
        </Title>
        <ImportPreview rows={rows} />
        <BatchForm rows={rows} onStart={onStart} />
      </Stack>
    </Paper>
  );
}
