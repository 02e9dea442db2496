import { Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { ReactNode } from 'react';

/**
 * One section of Settings (Clients, Webhooks, Members…): a bordered region named by its heading,
 * a line on what it is for, then its content.
 */
export function SettingsSection({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={headingId}>
            {title}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
