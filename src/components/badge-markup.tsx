import '@mantine/core/styles/Badge.css';
import { Badge } from '@mantine/core';
import type { BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './badge-markup.module.css';

/**
 * The looks of the dashboard's badges, as Badge props: `neutral` for facts (privacy, no result),
 * the light colours for results. badge-markup.module.css holds what Badge sets inline for each.
 */
export const BADGE_LOOKS = {
  neutral: { variant: 'default', radius: 'sm', tt: 'none' },
  good: { variant: 'light', color: 'teal', radius: 'sm', tt: 'none', c: 'var(--mantine-color-text)' },
  decent: { variant: 'light', color: 'orange', radius: 'sm', tt: 'none', c: 'var(--mantine-color-text)' },
  bad: { variant: 'light', color: 'red', radius: 'sm', tt: 'none', c: 'var(--mantine-color-text)' },
} as const satisfies Record<string, BadgeProps>;

export type BadgeLook = keyof typeof BADGE_LOOKS;

// Badge's classes and the static ones the Styles API adds (mantine-Badge-root…).
const ROOT = `${Badge.classes.root} mantine-Badge-root`;
const SECTION = `${Badge.classes.section} mantine-Badge-section`;
const LABEL = `${Badge.classes.label} mantine-Badge-label`;

/**
 * The markup Mantine's Badge renders for a look (classes, data attributes; its inline variables as
 * a class; badge-markup.test compares the two), without the component: a page of reports shows
 * 200 badges, and Badge works out theme, props, class names and colours again for each, a large
 * part of the time to show it. In a coloured look the left section (the icon) takes the colour.
 */
export function BadgeMarkup({
  look,
  leftSection,
  children,
}: {
  look: BadgeLook;
  leftSection?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      className={`${ROOT} ${classes[look]}`}
      data-variant={BADGE_LOOKS[look].variant}
      data-with-left-section={leftSection ? true : undefined}
    >
      {leftSection && (
        <span className={SECTION} data-position="left">
          {leftSection}
        </span>
      )}
      <span className={LABEL}>{children}</span>
    </div>
  );
}
