import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AnalysisError } from './analysis-error';
import { blockedMessage, classifyAddress, unbracket } from './address-guard';

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
 * `viaRedirect` only changes the wording of the refusal.
 */
export type ResolveHost = (hostname: string, viaRedirect: boolean) => Promise<ResolvedAddress>;

export interface ResolverOptions {
  allowPrivate: boolean;
  /** Pinned names, trusted as they are (tests and the demo map names to loopback this way). */
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

/** Lower-case, without IPv6 brackets and without the trailing dot of a fully qualified name. */
export function normaliseHost(hostname: string): string {
  return unbracket(hostname.toLowerCase()).replace(/\.$/, '');
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
  const pinned = new Map<string, string>();
  for (const [name, address] of Object.entries(options.hostMap ?? {})) {
    if (isIP(address) === 0) throw new TypeError(`hostMap entry for ${name} is not an IP address.`);
    pinned.set(normaliseHost(name), address);
  }
  const lookupAll = options.lookupAll ?? systemLookupAll;

  const check = (address: string, viaRedirect: boolean) => {
    if (options.allowPrivate) return;
    const kind = classifyAddress(address);
    if (kind) throw new AnalysisError(blockedMessage(kind, viaRedirect));
  };

  return async (hostname, viaRedirect) => {
    const host = normaliseHost(hostname);
    const pin = pinned.get(host);
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
