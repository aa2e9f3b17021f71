import { describe, expect, it } from 'vitest';
import { addressGroup, clientGroup } from '../../../../lambdas/domain/capacity/client-identity';

describe('clientGroup: the client a per-client limit counts', () => {
  it('counts an IPv4 address as it is, trimmed', () => {
    expect(clientGroup(' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('counts an IPv4 address mapped into IPv6 as the IPv4 address', () => {
    expect(clientGroup('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:198.51.100.42')).toBe('198.51.100.42');
  });

  it('counts an IPv6 address that merely ends in ::ffff:<IPv4> by its /64, not as that IPv4 address', () => {
    expect(clientGroup('2001:db8::ffff:203.0.113.7')).toBe('2001:db8:0:0::/64');
  });

  it('counts an IPv6 address by its /64, in lower case without leading zeros', () => {
    expect(clientGroup('2001:0DB8:00a0:0001:0000:0000:0000:0042')).toBe('2001:db8:a0:1::/64');
    expect(clientGroup('2001:db8:a0:1:ffff:1:2:3')).toBe('2001:db8:a0:1::/64');
  });

  it('fills a :: gap with zero groups on the right side of the /64', () => {
    expect(clientGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientGroup('2001:db8:7::')).toBe('2001:db8:7:0::/64');
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('counts the groups after a :: gap that reach into the /64', () => {
    expect(clientGroup('2001::5:6:7:8:9')).toBe('2001:0:0:5::/64');
  });

  it('drops a zone index', () => {
    expect(clientGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('drops a zone index that has colons of its own', () => {
    expect(clientGroup('fe80::1%a:b:c:d:e:f')).toBe('fe80:0:0:0::/64');
    expect(clientGroup('1:2:3:4:5:6:7:8%a::b')).toBe('1:2:3:4::/64');
  });

  it('counts an embedded IPv4 address as two groups', () => {
    expect(clientGroup('64:ff9b:1:2:3:4:1.2.3.4')).toBe('64:ff9b:1:2::/64');
    expect(clientGroup('64:ff9b:1::1.2.3.4')).toBe('64:ff9b:1:0::/64');
    expect(clientGroup('::1:2:3:4:1.2.3.4')).toBe('0:0:1:2::/64');
  });

  it('leaves what is not an IP address as it is, lower case', () => {
    expect(clientGroup('Unknown')).toBe('unknown');
    expect(clientGroup('::ffff:999.1.1.1')).toBe('::ffff:999.1.1.1');
  });
});

describe('addressGroup: the customer address a limit counts', () => {
  it('is lower case, without a +tag, trimmed', () => {
    expect(addressGroup(' Zoe+Daphnia@Example.CO.UK ')).toBe('zoe@example.co.uk');
    expect(addressGroup('zoe+a+b@example.com')).toBe('zoe@example.com');
  });

  it('keeps an address without a tag as it is', () => {
    expect(addressGroup('zoe@example.com')).toBe('zoe@example.com');
  });

  it('takes the last @ as the domain separator', () => {
    expect(addressGroup('"a@b"+x@example.com')).toBe('"a@b"@example.com');
  });

  it('keeps text without an @ whole, lower case', () => {
    expect(addressGroup('NoAt+Sign')).toBe('noat+sign');
  });
});
