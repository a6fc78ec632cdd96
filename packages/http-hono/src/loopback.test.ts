import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loopbackAllowedHosts } from './loopback.js';

describe('loopbackAllowedHosts', () => {
  it('admits the loopback names and the public origin on a loopback listener', () => {
    expect(loopbackAllowedHosts('127.0.0.1', 'http://localhost:4000')).toEqual([
      'localhost',
      '127.0.0.1',
      '[::1]',
      'localhost:4000',
    ]);
    expect(loopbackAllowedHosts('localhost', 'https://docs.example.com')).toContain('docs.example.com');
  });

  it('leaves other listen addresses to the application', () => {
    expect(loopbackAllowedHosts('0.0.0.0', 'http://localhost:4000')).toBeUndefined();
    expect(isLoopbackHost('127.8.9.10')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });
});
