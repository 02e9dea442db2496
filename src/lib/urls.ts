// A report's URL comes from the API and is shown as a link: only http(s) may become an href.

// host[:port] followed by nothing or a path/query/fragment. The host is a dotted name (letters of
// any script allowed), `localhost`, an IPv4 address or a bracketed IPv6 address.
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
const SCHEMELESS = new RegExp(
  `^(?:(?:${LABEL}\\.)+${LABEL}\\.?|localhost|\\[[0-9a-f:.]+\\])(?::\\d{1,5})?(?:[/?#][^\\s]*)?$`,
  'iu',
);

/** The href for "open page": http(s) URLs as they are, `example.com/pricing` as https; otherwise null. */
export function openPageHref(raw: string): string | null {
  const text = raw.trim();
  if (text === '' || /\s/.test(text)) return null;
  let candidate: string;
  if (/^https?:\/\//i.test(text)) candidate = text;
  else if (text.startsWith('//')) candidate = `https:${text}`;
  else if (SCHEMELESS.test(text)) candidate = `https://${text}`;
  else return null;
  try {
    const url = new URL(candidate);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
    return url.href;
  } catch {
    return null;
  }
}
