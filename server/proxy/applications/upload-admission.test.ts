import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressGroup } from './spam.ts';
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

describe('UploadSlots', () => {
  it('gives one address group at most its share, while others still get places, and takes each place back once', () => {
    const slots = new UploadSlots(5, 2);
    const a = [slots.take('a'), slots.take('a')];
    assert.equal(slots.take('a'), 'address_full');
    const b = [slots.take('b'), slots.take('b')];
    const c = slots.take('c');
    assert.equal(typeof c, 'function');
    assert.equal(slots.take('d'), 'full');
    const releaseA = a[0];
    assert.ok(typeof releaseA === 'function');
    releaseA();
    releaseA();
    assert.equal(typeof slots.take('d'), 'function', 'a released place is free again');
    assert.equal(slots.take('e'), 'full', 'released twice, it counts once');
    assert.ok(b.every((release) => typeof release === 'function'));
  });
});
