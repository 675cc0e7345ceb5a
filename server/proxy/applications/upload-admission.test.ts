import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressGroup, networkGroup } from './spam.ts';
import { UploadSlots } from './upload-admission.ts';

describe('addressGroup', () => {
  it('counts an IPv4 address as itself, and an IPv4-mapped IPv6 address as its IPv4 address', () => {
    assert.equal(addressGroup('127.0.0.2'), '127.0.0.2');
    assert.notEqual(addressGroup('127.0.0.2'), addressGroup('127.0.0.3'));
    assert.equal(addressGroup('::ffff:198.51.100.7'), '198.51.100.7');
  });

  it('counts IPv6 addresses by their /64 prefix: one host or household, whatever its interface identifiers', () => {
    assert.equal(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db8:1:2:ffff:abcd:1234:9'));
    assert.equal(addressGroup('2001:0db8:0001:0002:0000:0000:0000:0001'), addressGroup('2001:db8:1:2::77'));
    assert.notEqual(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db8:1:3::1'), 'another /64 of the same /48');
    assert.notEqual(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db9:1:2::1'));
  });
});

describe('networkGroup', () => {
  it('counts IPv6 addresses by their /48: every /64 of one site, one network', () => {
    assert.equal(networkGroup('2001:db8:1:2::1', false), '2001:db8:1::/48');
    assert.equal(networkGroup('2001:db8:1:ff00::9', true), '2001:db8:1::/48', 'another /64 of the same /48');
    assert.notEqual(networkGroup('2001:db8:1:2::1', false), networkGroup('2001:db8:2:2::1', false));
  });

  it('counts an IPv4 address by its /24 only when asked (addresses from X-Forwarded-For), else as itself', () => {
    assert.equal(networkGroup('198.51.100.7', true), '198.51.100.0/24');
    assert.equal(networkGroup('::ffff:198.51.100.200', true), '198.51.100.0/24');
    assert.equal(networkGroup('198.51.100.7', false), '198.51.100.7');
    assert.notEqual(networkGroup('198.51.100.7', true), networkGroup('198.51.101.7', true));
  });
});

describe('UploadSlots', () => {
  it('gives one address group at most its share, while others still get places, and takes each place back once', () => {
    const slots = new UploadSlots({ max: 5, perAddress: 2, perNetwork: 5 });
    const a = [slots.take('a', 'n'), slots.take('a', 'n')];
    assert.equal(slots.take('a', 'n'), 'address_full');
    const b = [slots.take('b', 'n'), slots.take('b', 'n')];
    const c = slots.take('c', 'n');
    assert.equal(typeof c, 'function');
    assert.equal(slots.take('d', 'm'), 'full');
    const releaseA = a[0];
    assert.ok(typeof releaseA === 'function');
    releaseA();
    releaseA();
    assert.equal(typeof slots.take('d', 'm'), 'function', 'a released place is free again');
    assert.equal(slots.take('e', 'm'), 'full', 'released twice, it counts once');
    assert.ok(b.every((release) => typeof release === 'function'));
  });

  it('gives one network at most its share, whatever its addresses, while other networks still get places', () => {
    const slots = new UploadSlots({ max: 10, perAddress: 2, perNetwork: 3 });
    const held = [slots.take('a', 'n'), slots.take('b', 'n'), slots.take('c', 'n')];
    assert.equal(slots.take('d', 'n'), 'network_full', 'a fourth address of the full network');
    assert.equal(slots.take('a', 'n'), 'network_full', 'an address under its own cap, in the full network');
    assert.equal(typeof slots.take('e', 'other'), 'function', 'another network');
    const release = held[1];
    assert.ok(typeof release === 'function');
    release();
    assert.equal(typeof slots.take('d', 'n'), 'function', 'a place of the network released is free again');
    assert.equal(slots.take('f', 'n'), 'network_full');
  });

  it('refuses an address at its cap as the address, before its network or the total', () => {
    const slots = new UploadSlots({ max: 2, perAddress: 2, perNetwork: 2 });
    slots.take('a', 'n');
    slots.take('a', 'n');
    assert.equal(slots.take('a', 'n'), 'address_full');
    assert.equal(slots.take('b', 'n'), 'network_full');
    assert.equal(slots.take('c', 'm'), 'full');
  });
});
