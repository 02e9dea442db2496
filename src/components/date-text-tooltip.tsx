import '@mantine/core/styles/Tooltip.css';
import { Tooltip } from '@mantine/core';

/** The tooltip of the page's dates (DateTooltips), in its own chunk: floating-ui is most of its weight. */
export default function DateTextTooltip({
  label,
  target,
}: {
  label: string;
  /** The date it points at (it follows when this changes); none: closed. */
  target: HTMLElement | null;
}) {
  return target === null ? null : <Tooltip label={label} opened target={target} withArrow />;
}
