import { Fragment } from 'react';

/**
 * After each `?`, `&`, `=`, `#`, `_` and `-`, and each `/` that is not followed by another; before a
 * file's extension (`.html` at the end of the path). A long file name then wraps between its words
 * ("…_45|.html") rather than inside one ("…_45.ht|ml", issue 50).
 */
const BREAK_AT = /(?<=[?&=#_-]|\/(?!\/))|(?=\.[A-Za-z0-9]{1,5}(?:[?#]|$))/;

/**
 * A URL as text that wraps where a reader expects, after `/`, `?`, `&`, `_` and `-`, rather than mid-word
 * ("c/ontact.html"): a `<wbr>` after each, the text itself untouched (React escapes it; its text
 * content is the URL exactly). Pair it with `overflow-wrap: break-word`, which breaks a part only when
 * that part alone is too long for the line.
 */
export function UrlText({ url }: { url: string }) {
  const parts = url.split(BREAK_AT);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}
