import classes from './badge-icon.module.css';

/** The icons badges use: Tabler's outline icons of the same names (badge-icon.module.css). */
export type BadgeIconName =
  'world' | 'lock' | 'key' | 'circle-check' | 'alert-triangle' | 'circle-x' | 'help-circle';

/**
 * A 12 px outline icon in the text colour, for badges: one element painted with a CSS mask. The
 * icon components render an svg of up to five paths, and a page of reports shows 200 badges, whose
 * icons were a fifth of the time to show it (elements to create, style, lay out). The masks are
 * classes, not inline styles, so the 200 icons share one style and one decoded image per icon.
 */
export function BadgeIcon({ name }: { name: BadgeIconName }) {
  return <span aria-hidden className={`${classes.icon} ${classes[name]}`} />;
}
