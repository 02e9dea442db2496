import '@mantine/core/styles/Skeleton.css';
import { Skeleton, Stack, VisuallyHidden } from '@mantine/core';

/** Placeholder lines while a list or a form's data loads; announces "Loading" to screen readers. */
export function LoadingRows({
  rows = 5,
  height = 36,
  label = 'Loading',
}: {
  rows?: number;
  height?: number;
  label?: string;
}) {
  return (
    <Stack gap="xs" role="status" aria-live="polite">
      <VisuallyHidden>{label}</VisuallyHidden>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} height={height} radius="sm" />
      ))}
    </Stack>
  );
}
