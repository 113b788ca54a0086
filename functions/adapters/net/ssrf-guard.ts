/**
 * Read first: the SSRF guard. Every URL the service fetches or calls on a user's behalf (image inputs,
 * profile photos, callback URLs) must reach a public internet address, never our own network.
 *
 * The rule is enforced on the IP that is actually connected to, not on the URL text:
 * - `createGuardedLookup` replaces `dns.lookup` in `http.request`, so the addresses checked are the very
 *   addresses the socket connects to; there is no second resolution for DNS rebinding to slip into.
 *   If ANY resolved address is not public the whole lookup fails (a name that mixes public and private
 *   records is refused rather than filtered, so retries cannot land on the private one).
 * - Node skips `lookup` when the host is a literal IP, so `assertUrlAllowed` checks literal hosts itself
 *   (the WHATWG URL parser has already normalised forms such as `0x7f.1` to `127.0.0.1`).
 *
 * "Public" is an allow-list for IPv6 (global unicast 2000::/3 minus special blocks) and a deny-list for
 * IPv4. IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address inside them.
 *
 * `allowLoopback` exists for local development only: it admits loopback (127/8, ::1 and IPv4-mapped
 * 127/8) and nothing else.
 */
import dns from 'node:dns';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';

export type AddressRange =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared-cgnat'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'protocol-assignment'
  | 'nat64-to-non-public'
  | '6to4-to-non-public'
  | 'invalid';

export interface GuardOptions {
  /** Development only: also admit loopback addresses. */
  allowLoopback?: boolean;
}

/** Refused by the guard. The message names the URL's host and nothing internal (no resolved IPs). */
export class BlockedAddressError extends Error {
  readonly code = 'BLOCKED_ADDRESS';

  constructor(
    readonly host: string,
    message = `Requests to ${host} are not allowed: it does not resolve to a public internet address.`,
  ) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

// First match wins: broadcast sits inside 240/4 and is listed before it.
const IPV4_BLOCKS: ReadonlyArray<readonly [string, AddressRange]> = [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared-cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'protocol-assignment'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'], // the deprecated 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
];

type Ipv6Rule = AddressRange | ((address: bigint) => AddressRange);

const embeddedAt = (address: bigint, shiftBits: bigint): number => Number((address >> shiftBits) & 0xffff_ffffn);
const publicOr = (range: AddressRange, embedded: number): AddressRange =>
  classifyIpv4(embedded) === 'public' ? 'public' : range;
const notPublic = (range: AddressRange): AddressRange => (range === 'public' ? 'reserved' : range);

// Checked in order before the global-unicast rule; the IPv4-carrying forms come first.
const IPV6_BLOCKS: ReadonlyArray<readonly [string, Ipv6Rule]> = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', (a) => classifyIpv4(embeddedAt(a, 0n))],
  // IPv4-compatible addresses are deprecated (RFC 4291 §2.5.5.1): never public, named by what they carry.
  ['::/96', (a) => notPublic(classifyIpv4(embeddedAt(a, 0n)))],
  ['64:ff9b::/96', (a) => publicOr('nat64-to-non-public', embeddedAt(a, 0n))],
  ['64:ff9b:1::/48', 'reserved'],
  ['100::/64', 'reserved'],
  // All of the IETF protocol block (Teredo, ORCHID, benchmarking…), though a few anycast services in it are public.
  ['2001::/23', 'protocol-assignment'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', (a) => publicOr('6to4-to-non-public', embeddedAt(a, 80n))],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

// Parsed when an address is first classified, not when a function starts: node:net's isIPv6 compiles
// its large regular expression on first use, and parsing these blocks took ~8 ms of every init of a
// function that can fetch a URL, whether or not its request does.
let ipv4Table: { network: number; mask: number; range: AddressRange }[] | undefined;
const ipv4TableOf = () =>
  (ipv4Table ??= IPV4_BLOCKS.map(([cidr, range]) => {
    const [base, bits] = cidr.split('/');
    const mask = (~0 << (32 - Number(bits))) >>> 0;
    return { network: ((parseIpv4(base) ?? 0) & mask) >>> 0, mask, range };
  }));

let ipv6Table: { network: bigint; mask: bigint; rule: Ipv6Rule }[] | undefined;
const ipv6TableOf = () =>
  (ipv6Table ??= IPV6_BLOCKS.map(([cidr, rule]) => {
    const [base, bits] = cidr.split('/');
    const mask = ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - Number(bits))) - 1n);
    return { network: (parseIpv6(base) ?? 0n) & mask, mask, rule };
  }));

const GLOBAL_UNICAST = { network: 0x2000n << 112n, mask: 0xe000n << 112n };

/** Names the special-purpose range an IP address belongs to, or `public`. Accepts `[v6]` and `%zone`. */
export function classifyAddress(address: string): AddressRange {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return classifyIpv4(v4);
  const v6 = parseIpv6(bare);
  return v6 === undefined ? 'invalid' : classifyIpv6(v6);
}

/** Whether a connection to this IP may be made: public, or loopback when the caller allows it. */
export function isAllowedAddress(address: string, options: GuardOptions = {}): boolean {
  const range = classifyAddress(address);
  return range === 'public' || (options.allowLoopback === true && range === 'loopback');
}

/** Refuses URLs with credentials and URLs whose host is a literal IP that is not allowed. */
export function assertUrlAllowed(url: URL, options: GuardOptions = {}): void {
  if (url.username !== '' || url.password !== '') {
    throw new BlockedAddressError(
      url.host,
      `URLs with embedded credentials (user:pass@) are not allowed (${url.host}).`,
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !isAllowedAddress(host, options)) throw new BlockedAddressError(url.host);
}

/** `dns.lookup` with `all: true`, as the guard calls it. Injectable so tests need no real DNS. */
export type ResolveAll = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export interface GuardedLookupOptions extends GuardOptions {
  resolve?: ResolveAll;
}

/**
 * A `lookup` for `http.request` / `net.connect`: resolves every address of the host and fails with
 * BlockedAddressError unless all of them are allowed. Honours `all: true` (what Node 20's
 * happy-eyeballs connect asks for) and the single-address form.
 */
export function createGuardedLookup(options: GuardedLookupOptions = {}): LookupFunction {
  const resolve: ResolveAll = options.resolve ?? dns.lookup;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.length === 0 || addresses.some(({ address }) => !isAllowedAddress(address, options));
      if (refused) return callback(new BlockedAddressError(hostname), []);
      if (lookupOptions.all === true) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The guarded lookup with production settings (public addresses only). */
export const lookup: LookupFunction = createGuardedLookup();

function classifyIpv4(address: number): AddressRange {
  const block = ipv4TableOf().find(({ network, mask }) => (address & mask) >>> 0 === network);
  return block?.range ?? 'public';
}

function classifyIpv6(address: bigint): AddressRange {
  const block = ipv6TableOf().find(({ network, mask }) => (address & mask) === network);
  if (block !== undefined) return typeof block.rule === 'function' ? block.rule(address) : block.rule;
  return (address & GLOBAL_UNICAST.mask) === GLOBAL_UNICAST.network ? 'public' : 'reserved';
}

function parseIpv4(text: string): number | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function parseIpv6(text: string): bigint | undefined {
  if (!isIPv6(text)) return undefined;
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          const v4 = parseIpv4(group);
          return v4 === undefined ? [parseInt(group, 16)] : [v4 >>> 16, v4 & 0xffff];
        });
  const [head, tail] = text.split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all =
    tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}
