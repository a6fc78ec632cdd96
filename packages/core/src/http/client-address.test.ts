import { describe, expect, it } from 'vitest';
import { clientAddress, compileProxyTrust, invalidProxyEntries } from './client-address.js';

describe('clientAddress', () => {
  const request = { peer: '10.0.0.2', forwardedFor: '198.51.100.1, 203.0.113.9, 10.0.0.5' };

  it('counts the connection itself when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request, compileProxyTrust(false))).toBe('10.0.0.2');
    expect(clientAddress({ forwardedFor: '198.51.100.1' }, compileProxyTrust(false))).toBe('unknown');
  });

  it('takes the first forwarded address when every hop is trusted', () => {
    expect(clientAddress(request, compileProxyTrust(true))).toBe('198.51.100.1');
    expect(clientAddress({ forwardedFor: '198.51.100.1' }, compileProxyTrust(true))).toBe('198.51.100.1');
  });

  it('trusts as many hops as a number says, counted from the server', () => {
    expect(clientAddress(request, compileProxyTrust(1))).toBe('10.0.0.5');
    expect(clientAddress(request, compileProxyTrust(2))).toBe('203.0.113.9');
    expect(clientAddress(request, compileProxyTrust(10))).toBe('198.51.100.1');
  });

  it('walks past the listed proxies only, so a hop the client wrote itself is not believed', () => {
    const trust = compileProxyTrust(['10.0.0.0/8']);
    expect(clientAddress(request, trust)).toBe('203.0.113.9');
    expect(clientAddress({ peer: '192.0.2.1', forwardedFor: '198.51.100.1' }, trust)).toBe('192.0.2.1');
    expect(clientAddress({ forwardedFor: '198.51.100.1' }, trust)).toBe('unknown');
  });

  it('reads IPv6 and IPv4-mapped peers against named ranges', () => {
    const trust = compileProxyTrust(['loopback', 'uniquelocal']);
    expect(clientAddress({ peer: '::ffff:127.0.0.1', forwardedFor: '203.0.113.9' }, trust)).toBe('203.0.113.9');
    expect(clientAddress({ peer: '::1', forwardedFor: '2001:db8::7' }, trust)).toBe('2001:db8::7');
    expect(clientAddress({ peer: 'fd12:3456::1', forwardedFor: '[2001:db8::8]' }, trust)).toBe('[2001:db8::8]');
    expect(clientAddress({ peer: '2001:db8::1', forwardedFor: '203.0.113.9' }, trust)).toBe('2001:db8::1');
  });
});

describe('compileProxyTrust', () => {
  it('names the entries that are not an address, a CIDR range or a named range', () => {
    expect(invalidProxyEntries(['10.0.0.0/8', '::1', 'loopback', '10.0.0.300', '10.0.0.0/33', 'proxy.local'])).toEqual([
      '10.0.0.300',
      '10.0.0.0/33',
      'proxy.local',
    ]);
    expect(() => compileProxyTrust(['proxy.local'])).toThrow(/"proxy\.local", which is not an IP address/);
  });
});
