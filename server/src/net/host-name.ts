import { unbracket } from './address-guard';

/** Lower-case, without IPv6 brackets and without the trailing dot of a fully qualified name. */
export function normaliseHost(hostname: string): string {
  return unbracket(hostname.toLowerCase()).replace(/\.+$/, '');
}

/**
 * The URL with its host name in the one form every decision sees (pins, the guard, the Host
 * header, the project): lower case, no trailing dot, so `SHOP.EXAMPLE.` is `shop.example`.
 */
export function normaliseUrlHost(input: string | URL): URL {
  const url = new URL(input);
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (host !== '' && host !== url.hostname) url.hostname = host;
  return url;
}

/**
 * A report's project: the URL's host name, lower-cased, without port, without the trailing dot
 * of a fully qualified name and without a leading `www.` (`https://WWW.Shop.Example.com.:8443/x`
 * -> `shop.example.com`).
 */
export function projectFromUrl(url: string): string {
  const host = normaliseUrlHost(url).hostname;
  return host.startsWith('www.') && host.length > 4 ? host.slice(4) : host;
}

/** The port a connection to `url` uses: the one it names, else its scheme's default. */
export function effectivePort(url: URL): number {
  return Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
}
