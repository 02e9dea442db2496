import { Badge, useMantineTheme } from '@mantine/core';
import type { BadgeProps, MantineTheme } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/** The props of Badge that decide its look (size md, the default, is the only size used). */
export interface BadgeLook {
  color?: string;
  variant: 'light' | 'default';
  radius?: BadgeProps['radius'];
}

const VARS = new WeakMap<MantineTheme, Map<string, CSSProperties>>();

/** Badge's own CSS variables for a look, worked out once per theme and look. */
function badgeVars(theme: MantineTheme, look: BadgeLook): CSSProperties {
  let byLook = VARS.get(theme);
  if (byLook === undefined) {
    byLook = new Map();
    VARS.set(theme, byLook);
  }
  const key = `${look.variant}|${look.color ?? ''}|${String(look.radius ?? '')}`;
  let vars = byLook.get(key);
  if (vars === undefined) {
    const resolved = Badge.varsResolver(theme, look as BadgeProps, {}).root ?? {};
    vars = Object.fromEntries(
      Object.entries(resolved).filter(([, value]) => value !== undefined),
    ) as CSSProperties;
    byLook.set(key, vars);
  }
  return vars;
}

// Badge's classes and the static ones the Styles API adds (mantine-Badge-root…).
const ROOT = `${Badge.classes.root} mantine-Badge-root`;
const SECTION = `${Badge.classes.section} mantine-Badge-section`;
const LABEL = `${Badge.classes.label} mantine-Badge-label`;

/**
 * The markup Mantine's Badge renders (classes, data attributes, CSS variables; badge-markup.test
 * compares the two), without the component: a page of reports shows 200 badges, and Badge works
 * out theme, props, class names and colours again for each, a large part of the time to show it.
 */
export function BadgeMarkup({
  look,
  leftSection,
  style,
  children,
}: {
  look: BadgeLook;
  leftSection?: ReactNode;
  style?: CSSProperties;
  children: ReactNode;
}) {
  const theme = useMantineTheme();
  return (
    <div
      className={ROOT}
      data-variant={look.variant}
      data-with-left-section={leftSection ? true : undefined}
      style={{ ...badgeVars(theme, look), ...style }}
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
