import type { CSSProperties } from 'react';
import classes from './badge-icon.module.css';

/**
 * The outline icons of the badges, as path data of Tabler Icons 3.51 (MIT; the ones
 * @tabler/icons-react renders as IconWorld, IconLock…). badge-icon.test compares them with those
 * components, so an upgrade that changes an icon shows.
 */
export const BADGE_ICON_PATHS = {
  world: [
    'M3 12a9 9 0 1 0 18 0a9 9 0 0 0 -18 0',
    'M3.6 9h16.8',
    'M3.6 15h16.8',
    'M11.5 3a17 17 0 0 0 0 18',
    'M12.5 3a17 17 0 0 1 0 18',
  ],
  lock: [
    'M5 13a2 2 0 0 1 2 -2h10a2 2 0 0 1 2 2v6a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-6',
    'M11 16a1 1 0 1 0 2 0a1 1 0 0 0 -2 0',
    'M8 11v-4a4 4 0 1 1 8 0v4',
  ],
  key: [
    'M16.555 3.843l3.602 3.602a2.877 2.877 0 0 1 0 4.069l-2.643 2.643a2.877 2.877 0 0 1 -4.069 0l-.301 -.301l-6.558 6.558a2 2 0 0 1 -1.239 .578l-.175 .008h-1.172a1 1 0 0 1 -.993 -.883l-.007 -.117v-1.172a2 2 0 0 1 .467 -1.284l.119 -.13l.414 -.414h2v-2h2v-2l2.144 -2.144l-.301 -.301a2.877 2.877 0 0 1 0 -4.069l2.643 -2.643a2.877 2.877 0 0 1 4.069 0',
    'M15 9h.01',
  ],
  'circle-check': ['M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0', 'M9 12l2 2l4 -4'],
  'alert-triangle': [
    'M12 9v4',
    'M10.363 3.591l-8.106 13.534a1.914 1.914 0 0 0 1.636 2.871h16.214a1.914 1.914 0 0 0 1.636 -2.87l-8.106 -13.536a1.914 1.914 0 0 0 -3.274 0',
    'M12 16h.01',
  ],
  'circle-x': ['M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0', 'M10 10l4 4m0 -4l-4 4'],
  'help-circle': [
    'M3 12a9 9 0 1 0 18 0a9 9 0 0 0 -18 0',
    'M12 16v.01',
    'M12 13a2 2 0 0 0 .914 -3.782a1.98 1.98 0 0 0 -2.414 .483',
  ],
} as const;

export type BadgeIconName = keyof typeof BADGE_ICON_PATHS;

/** The icon as an SVG data URL, drawn the way Tabler's outline icons are (stroke 2, round ends). */
export function badgeIconUrl(name: BadgeIconName): string {
  const paths = BADGE_ICON_PATHS[name].map((d) => `<path d="${d}"/>`).join('');
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#000" ' +
    `stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

// One style object per icon and colour, made once: equal props, no new objects per render.
const STYLES = new Map<string, CSSProperties>();
function styleOf(name: BadgeIconName, color: string | undefined): CSSProperties {
  const key = `${name} ${color ?? ''}`;
  let style = STYLES.get(key);
  if (style === undefined) {
    style = { '--badge-icon': badgeIconUrl(name), ...(color ? { color } : {}) } as CSSProperties;
    STYLES.set(key, style);
  }
  return style;
}

/**
 * A 12 px outline icon in the text colour (or `color`), for badges. One element painted with a CSS
 * mask: the icon components render an svg of up to five paths, and a page of reports shows 200
 * badges, whose icons were a fifth of the time to show it (elements to create, style, lay out).
 */
export function BadgeIcon({ name, color }: { name: BadgeIconName; color?: string }) {
  return <span aria-hidden className={classes.icon} style={styleOf(name, color)} />;
}
