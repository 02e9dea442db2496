import '@mantine/core/styles/Tooltip.css';
import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';

/** The tooltip of DateText, in its own chunk: floating-ui is most of its weight. */
export default function DateTextTooltip({
  label,
  opened,
  children,
}: {
  label: string;
  /** Open at once: it mounts because the pointer is already over the date. */
  opened: boolean;
  children: ReactElement;
}) {
  return (
    <Tooltip label={label} openDelay={300} withArrow defaultOpened={opened}>
      {children}
    </Tooltip>
  );
}
