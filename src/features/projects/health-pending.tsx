import { Text } from '@mantine/core';

/** A project's health on its way (in a projects table row, until its counts arrive). */
export function HealthPending() {
  return (
    <Text size="xs" c="dimmed" role="status">
      Loading health…
    </Text>
  );
}
