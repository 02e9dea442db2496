// A value to copy (a report's public address; a secret the service shows once: a member's API key,
// a webhook's signing secret, a share link): read-only in a field that selects itself on focus, with
// Copy beside it.
import { Alert, Button, CopyButton, Group, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** The value in a read-only field, selected on focus, and a Copy button that says Copied once it has. */
export function CopyField({
  label,
  value,
  copyLabel = 'Copy',
  size,
  autoFocus = false,
}: {
  label: string;
  value: string;
  /** The button's word before it has copied. */
  copyLabel?: string;
  /** The Copy button's size: `xs` inside an alert. */
  size?: 'xs';
  /** The field takes the focus when its dialog opens. */
  autoFocus?: boolean;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput
        label={label}
        value={value}
        readOnly
        spellCheck={false}
        // The value in monospace (a key, a secret, an address), the label as every other label.
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        onFocus={(event) => event.currentTarget.select()}
        style={{ flex: 1, minWidth: 0 }}
        data-autofocus={autoFocus || undefined}
      />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            size={size}
            variant="default"
            onClick={copy}
            leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          >
            {copied ? 'Copied' : copyLabel}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** "Copy the … now": what the secret is for (`children`), the secret to copy, and Done. */
export function ShownOnce({
  title,
  label,
  value,
  onDone,
  children,
}: {
  title: string;
  label: string;
  value: string;
  onDone: () => void;
  children: ReactNode;
}) {
  return (
    <Alert color="yellow" variant="light" title={title} aria-live="polite">
      <Stack gap="xs">
        {children}
        <CopyField label={label} value={value} size="xs" />
        <Group>
          {/* Gray: the words keep 4.5:1 on the yellow tint in both schemes (blue does not in dark). */}
          <Button size="xs" variant="subtle" color="gray" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
