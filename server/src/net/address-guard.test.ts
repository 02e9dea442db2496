import { describe, expect, it } from 'vitest';
import { blockedMessage, classifyAddress } from './address-guard';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.20', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::', 'loopback'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['not-an-address', 'reserved'],
    ['::7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::8.8.8.8', 'reserved'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::808:808', 'reserved'],
    ['2002:a00:1::', 'private'],
    ['2001::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['127.1', 'reserved'],
    ['0x7f.0.0.1', 'reserved'],
  ])('refuses %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::',
    '64:ff9b::808:808',
    '2620:4f:8000::1',
  ])('lets the public address %s through', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });
});

describe('blockedMessage', () => {
  it('says in plain words what was refused and why', () => {
    expect(blockedMessage('private', false)).toBe(
      'The URL points to a private network address, which this server does not fetch.',
    );
    expect(blockedMessage('metadata', true)).toBe(
      'The page redirects to a cloud metadata address, which this server does not fetch.',
    );
  });
});
