import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AnalysisError } from './analysis-error';
import { blockedMessage, classifyAddress } from './address-guard';
import { normaliseHost } from './host-name';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a name has; the system resolver by default, replaceable in tests. */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * The one place a host name becomes an address the fetcher may connect to. It either returns
 * an address that has passed the guard or throws an AnalysisError; the fetcher then connects
 * to exactly that address, so a second DNS answer can never slip in between check and connect.
 * `port` is the one the connection will use (80/443 when the URL names none): a pin may hold
 * for one port only. `viaRedirect` only changes the wording of the refusal.
 */
export type ResolveHost = (hostname: string, port: number, viaRedirect: boolean) => Promise<ResolvedAddress>;

export interface ResolverOptions {
  allowPrivate: boolean;
  /**
   * Pinned names, trusted as they are. A key `name:port` pins the name for that port only (the
   * demo sites: their names must not reach any other local service); a bare `name` pins it on
   * every port, which only tests use. Read at each lookup, so removing an entry revokes the pin
   * (the demo server does so when it stops). On any other port a pinned name is an ordinary name.
   */
  hostMap?: Record<string, string>;
  lookupAll?: LookupAll;
}

const systemLookupAll: LookupAll = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function familyOf(address: string): 4 | 6 {
  return isIP(address) === 6 ? 6 : 4;
}

/** `name` or `name:port` (a hostMap key) -> the normalised name and the port, null for any port. */
function parsePinKey(key: string): { host: string; port: number | null } {
  const match = /^(.*):(\d{1,5})$/.exec(key);
  // A bare IPv6 literal also ends in `:digits`; only a bracketed one can carry a port.
  if (match?.[1] && (!match[1].includes(':') || match[1].endsWith(']'))) {
    return { host: normaliseHost(match[1]), port: Number(match[2]) };
  }
  return { host: normaliseHost(key), port: null };
}

function lookupFailure(hostname: string, error: unknown): AnalysisError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME') {
    return new AnalysisError(`The page could not be reached: the host name ${hostname} could not be found.`);
  }
  return new AnalysisError(
    `The page could not be reached: the host name ${hostname} could not be looked up.`,
  );
}

export function createResolver(options: ResolverOptions): ResolveHost {
  const hostMap = options.hostMap ?? {};
  for (const [name, address] of Object.entries(hostMap)) {
    if (isIP(address) === 0) throw new TypeError(`hostMap entry for ${name} is not an IP address.`);
  }
  const pinFor = (host: string, port: number): string | undefined => {
    for (const [key, address] of Object.entries(hostMap)) {
      const pin = parsePinKey(key);
      if (pin.host === host && (pin.port === null || pin.port === port) && isIP(address) !== 0) return address;
    }
    return undefined;
  };
  const lookupAll = options.lookupAll ?? systemLookupAll;

  const check = (address: string, viaRedirect: boolean) => {
    if (options.allowPrivate) return;
    const kind = classifyAddress(address);
    if (kind) throw new AnalysisError(blockedMessage(kind, viaRedirect));
  };

  return async (hostname, port, viaRedirect) => {
    const host = normaliseHost(hostname);
    const pin = pinFor(host, port);
    if (pin) return { address: pin, family: familyOf(pin) };
    if (isIP(host) !== 0) {
      check(host, viaRedirect);
      return { address: host, family: familyOf(host) };
    }
    let answers: ResolvedAddress[];
    try {
      answers = await lookupAll(host);
    } catch (error) {
      throw lookupFailure(host, error);
    }
    const first = answers[0];
    if (!first) throw lookupFailure(host, { code: 'ENOTFOUND' });
    // Every answer is checked, not only the one used: a name that also points inward is refused.
    for (const answer of answers) check(answer.address, viaRedirect);
    return first;
  };
}
