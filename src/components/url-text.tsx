import { Fragment } from 'react';

/** After each `?`, `&`, `=` and `#`, and each `/` that is not followed by another. */
const BREAK_AFTER = /(?<=[?&=#]|\/(?!\/))/;

/**
 * A URL as text that wraps where a reader expects, after `/`, `?` and `&`, rather than mid-word
 * ("c/ontact.html"): a `<wbr>` after each, the text itself untouched (React escapes it; its text
 * content is the URL exactly). Pair it with `overflow-wrap: break-word`, which breaks a part only when
 * that part alone is too long for the line.
 */
export function UrlText({ url }: { url: string }) {
  const parts = url.split(BREAK_AFTER);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}
