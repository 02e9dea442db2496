import '@mantine/core/styles/Tooltip.css';
import { Tooltip } from '@mantine/core';
import type { RefObject } from 'react';

/** The tooltip of DateText, in its own chunk: floating-ui is most of its weight. */
export default function DateTextTooltip({
  label,
  opened,
  target,
}: {
  label: string;
  /** DateText decides: hover, focus or tap, until Escape. */
  opened: boolean;
  target: RefObject<HTMLElement | null>;
}) {
  return <Tooltip label={label} opened={opened} target={target} withArrow />;
}
