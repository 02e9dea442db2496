import { useAfter } from '@/lib/use-after';
import classes from './loading-bar.module.css';

interface LoadingBarProps {
  loading: boolean;
  /** What is loading, as in "Loading the reports". */
  what: string;
}

/**
 * While a view's next answer is slow to come (`loading` for 250 ms), a thin bar moves along the top
 * edge of the window, wherever the page is scrolled: the previous answer stays on screen as it was,
 * readable. Dimming it instead took its text below WCAG's 4.5:1 (every grey, link and badge).
 * A quick answer shows no bar: the screen then changes once, not twice.
 */
export function LoadingBar({ loading, what }: LoadingBarProps) {
  const late = useAfter(loading, SHOW_AFTER_MS);
  if (!late) return null;
  return <div role="progressbar" aria-label={`Loading the ${what}`} className={classes.bar} />;
}

const SHOW_AFTER_MS = 250;
