import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  type AddressRange,
  assertUrlAllowed,
  BlockedAddressError,
  classifyAddress,
  createGuardedLookup,
  isAllowedAddress,
  type ResolveAll,
} from '../../../../functions/adapters/net/ssrf-guard';

// Each range: the addresses just outside it (when public) and its first and last addresses.
const IPV4_CASES: Array<[string, AddressRange]> = [
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['1.0.0.0', 'public'],
  ['9.255.255.255', 'public'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['11.0.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.64.0.0', 'shared-cgnat'],
  ['100.127.255.255', 'shared-cgnat'],
  ['100.128.0.0', 'public'],
  ['126.255.255.255', 'public'],
  ['127.0.0.0', 'loopback'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['128.0.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['169.254.0.0', 'link-local'],
  ['169.254.169.254', 'link-local'],
  ['169.254.255.255', 'link-local'],
  ['169.255.0.0', 'public'],
  ['172.15.255.255', 'public'],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.0', 'public'],
  ['191.255.255.255', 'public'],
  ['192.0.0.0', 'protocol-assignment'],
  ['192.0.0.255', 'protocol-assignment'],
  ['192.0.1.0', 'public'],
  ['192.0.1.255', 'public'],
  ['192.0.2.0', 'documentation'],
  ['192.0.2.255', 'documentation'],
  ['192.0.3.0', 'public'],
  ['192.88.98.255', 'public'],
  ['192.88.99.0', 'reserved'],
  ['192.88.99.255', 'reserved'],
  ['192.88.100.0', 'public'],
  ['192.167.255.255', 'public'],
  ['192.168.0.0', 'private'],
  ['192.168.255.255', 'private'],
  ['192.169.0.0', 'public'],
  ['198.17.255.255', 'public'],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.20.0.0', 'public'],
  ['198.51.99.255', 'public'],
  ['198.51.100.0', 'documentation'],
  ['198.51.100.255', 'documentation'],
  ['198.51.101.0', 'public'],
  ['203.0.112.255', 'public'],
  ['203.0.113.0', 'documentation'],
  ['203.0.113.255', 'documentation'],
  ['203.0.114.0', 'public'],
  ['223.255.255.255', 'public'],
  ['224.0.0.0', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['8.8.8.8', 'public'],
];

const IPV6_CASES: Array<[string, AddressRange]> = [
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::2', 'unspecified'],
  // IPv4-mapped: judged by the IPv4 address inside, dotted or hex.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  // IPv4-compatible (deprecated): never public.
  ['::127.0.0.1', 'loopback'],
  ['::10.0.0.1', 'private'],
  ['::8.8.8.8', 'reserved'],
  // NAT64 64:ff9b::/96.
  ['64:ff9b::8.8.8.8', 'public'],
  ['64:ff9b::a00:1', 'nat64-to-non-public'],
  ['64:ff9b::127.0.0.1', 'nat64-to-non-public'],
  ['64:ff9b::a9fe:a9fe', 'nat64-to-non-public'],
  ['64:ff9b:1::', 'reserved'],
  // 6to4 2002::/16: the IPv4 address sits in the 2nd and 3rd groups.
  ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['2002:808:808::1', 'public'],
  ['2002:a00:1::1', '6to4-to-non-public'],
  ['2002:7f00:1::', '6to4-to-non-public'],
  ['2002:a9fe:a9fe::', '6to4-to-non-public'],
  ['2002:c0a8:101:ffff:ffff:ffff:ffff:ffff', '6to4-to-non-public'],
  ['2003::', 'public'],
  // Global unicast 2000::/3 is the only public space.
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2000::', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['3fff::', 'documentation'],
  ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['3fff:1000::', 'public'],
  ['4000::', 'reserved'],
  ['100::', 'reserved'],
  ['2001::', 'protocol-assignment'],
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'protocol-assignment'],
  ['2001:200::', 'public'],
  ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['2001:db8::', 'documentation'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['2001:db9::', 'public'],
  ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fc00::', 'unique-local'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
  ['fe00::', 'reserved'],
  ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fe80::', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['FEBF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF', 'link-local'],
  ['fec0::', 'site-local'],
  ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local'],
  ['ff00::', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
];

describe('classifyAddress', () => {
  it.each(IPV4_CASES)('%s is %s', (address, range) => expect(classifyAddress(address)).toBe(range));
  it.each(IPV6_CASES)('%s is %s', (address, range) => expect(classifyAddress(address)).toBe(range));

  it('anything that is not an IP address is invalid, never public', () => {
    for (const text of [
      '',
      'localhost',
      '127.1',
      '0x7f000001',
      '2130706433',
      '256.0.0.1',
      '1.2.3.4.5',
      ':::1',
      'fe80::1::2',
    ]) {
      expect(classifyAddress(text)).toBe('invalid');
    }
  });
});

describe('isAllowedAddress', () => {
  it('allowLoopback admits loopback and nothing else', () => {
    const options = { allowLoopback: true };
    for (const loopback of ['127.0.0.1', '127.255.255.255', '::1', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(loopback)).toBe(false);
      expect(isAllowedAddress(loopback, options)).toBe(true);
    }
    for (const other of [
      '10.0.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::',
      'fd00::1',
      '64:ff9b::127.0.0.1',
      '2002:7f00:1::',
    ]) {
      expect(isAllowedAddress(other, options)).toBe(false);
    }
  });
});

describe('assertUrlAllowed', () => {
  it('a public hostname or public literal IP passes', () => {
    expect(() => assertUrlAllowed(new URL('https://images.example.com/a.png'))).not.toThrow();
    expect(() => assertUrlAllowed(new URL('http://8.8.8.8/'))).not.toThrow();
    expect(() => assertUrlAllowed(new URL('http://[2606:4700:4700::1111]/'))).not.toThrow();
  });

  it('a literal non-public IP is refused, whatever notation the URL used', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://0/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[fd00::1]/',
    ]) {
      expect(() => assertUrlAllowed(new URL(url))).toThrow(BlockedAddressError);
    }
  });

  it('allowLoopback admits a loopback literal but not a private one', () => {
    expect(() => assertUrlAllowed(new URL('http://127.0.0.1:3000/'), { allowLoopback: true })).not.toThrow();
    expect(() => assertUrlAllowed(new URL('http://10.0.0.1/'), { allowLoopback: true })).toThrow(BlockedAddressError);
  });

  it('credentials in the URL are refused', () => {
    expect(() => assertUrlAllowed(new URL('https://user:pass@images.example.com/'))).toThrow(/credentials/);
    expect(() => assertUrlAllowed(new URL('https://user@images.example.com/'))).toThrow(BlockedAddressError);
  });

  it('the error names the host and no resolved address', () => {
    const error = catchError(() => assertUrlAllowed(new URL('http://169.254.169.254/latest')));
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error.message).toBe(
      'Requests to 169.254.169.254 are not allowed: it does not resolve to a public internet address.',
    );
  });
});

describe('createGuardedLookup', () => {
  const v4 = (address: string): LookupAddress => ({ address, family: 4 });
  const v6 = (address: string): LookupAddress => ({ address, family: 6 });
  const resolvingTo =
    (...addresses: LookupAddress[]): ResolveAll =>
    (_hostname, _options, callback) =>
      callback(null, addresses);

  const run = (lookup: LookupFunction, all: boolean) =>
    new Promise<{ error: unknown; address: unknown; family: unknown }>((resolve) =>
      lookup('cdn.example.com', { all }, (error, address, family) => resolve({ error, address, family })),
    );

  it('all public addresses pass, as a list when all is requested', async () => {
    const lookup = createGuardedLookup({ resolve: resolvingTo(v4('8.8.8.8'), v6('2606:4700:4700::1111')) });
    expect(await run(lookup, true)).toEqual({
      error: null,
      address: [v4('8.8.8.8'), v6('2606:4700:4700::1111')],
      family: undefined,
    });
  });

  it('all public addresses pass, as the first one when all is not requested', async () => {
    const lookup = createGuardedLookup({ resolve: resolvingTo(v6('2606:4700:4700::1111'), v4('8.8.8.8')) });
    expect(await run(lookup, false)).toEqual({ error: null, address: '2606:4700:4700::1111', family: 6 });
  });

  it('one non-public address among public ones refuses the whole host', async () => {
    const lookup = createGuardedLookup({ resolve: resolvingTo(v4('8.8.8.8'), v4('10.0.0.5')) });
    const { error } = await run(lookup, true);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect((error as BlockedAddressError).host).toBe('cdn.example.com');
    expect((error as Error).message).not.toContain('10.0.0.5');
  });

  it('a host resolving to the metadata address is refused', async () => {
    const { error } = await run(createGuardedLookup({ resolve: resolvingTo(v4('169.254.169.254')) }), false);
    expect(error).toBeInstanceOf(BlockedAddressError);
  });

  it('a host resolving to an IPv4-mapped loopback is refused', async () => {
    const { error } = await run(createGuardedLookup({ resolve: resolvingTo(v6('::ffff:127.0.0.1')) }), true);
    expect(error).toBeInstanceOf(BlockedAddressError);
  });

  it('allowLoopback admits a host resolving only to loopback', async () => {
    const lookup = createGuardedLookup({ allowLoopback: true, resolve: resolvingTo(v4('127.0.0.1'), v6('::1')) });
    expect((await run(lookup, true)).error).toBeNull();
  });

  it('allowLoopback still refuses loopback mixed with a private address', async () => {
    const lookup = createGuardedLookup({
      allowLoopback: true,
      resolve: resolvingTo(v4('127.0.0.1'), v4('192.168.1.1')),
    });
    expect((await run(lookup, true)).error).toBeInstanceOf(BlockedAddressError);
  });

  it('an empty answer is refused', async () => {
    expect((await run(createGuardedLookup({ resolve: resolvingTo() }), true)).error).toBeInstanceOf(
      BlockedAddressError,
    );
  });

  it('a resolver error is passed on unchanged', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND cdn.example.com'), { code: 'ENOTFOUND' });
    const lookup = createGuardedLookup({ resolve: (_h, _o, callback) => callback(notFound, []) });
    expect((await run(lookup, true)).error).toBe(notFound);
  });

  it('the resolver is always asked for every address', async () => {
    const asked: unknown[] = [];
    const lookup = createGuardedLookup({
      resolve: (_hostname, options, callback) => {
        asked.push(options.all);
        callback(null, [v4('8.8.8.8')]);
      },
    });
    await run(lookup, false);
    expect(asked).toEqual([true]);
  });
});

function catchError(action: () => void): Error {
  try {
    action();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected an error');
}
