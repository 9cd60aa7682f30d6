import { describe, expect, it } from 'vitest';
import {
  parsePollPath,
  pollEmbed,
  pollPage,
  pollPath,
  pollPreviewImage,
  pollQrCode,
  printSheet,
  type PollAddress,
} from './poll-links.js';

const addresses: [string, PollAddress, (n: string) => string][] = [
  ['page', pollPage, (n) => `/poll-${n}`],
  ['print sheet', printSheet, (n) => `/poll-${n}/print`],
  ['embed', pollEmbed, (n) => `/embed/poll-${n}`],
  ['QR code', pollQrCode, (n) => `/qr/poll-${n}.svg`],
  ['preview image', pollPreviewImage, (n) => `/og/poll-${n}.png`],
];

describe.each(addresses)('the %s address of a poll', (_name, address, written) => {
  it('reads back every number it builds, up to the largest a poll can have', () => {
    for (const pollNumber of [1, 9, 10, 99, 12_345, 999_999_999, 1_000_000_000, 2_147_483_647]) {
      expect(address.path(pollNumber)).toBe(written(String(pollNumber)));
      expect(address.parse(address.path(pollNumber))).toBe(pollNumber);
    }
  });

  it('refuses leading zeros, signs, other spellings of a number, and numbers no poll can have', () => {
    for (const junk of [
      '0',
      '00',
      '01',
      '007',
      '-1',
      '+1',
      '1.0',
      '1.5',
      '1e3',
      '0x10',
      ' 1',
      '1 ',
      '１',
      '',
      'abc',
      '2147483648',
      '9999999999',
      '10000000000',
      '9007199254740993',
      '9'.repeat(400),
    ]) {
      expect(address.parse(written(junk)), junk).toBeNull();
    }
  });

  it('refuses what surrounds the number when it is not the address’s own', () => {
    expect(address.parse(`${written('3')}x`)).toBeNull();
    expect(address.parse(`/x${written('3')}`)).toBeNull();
    expect(address.parse(written('3').toUpperCase())).toBeNull();
    expect(address.parse(`${written('3')}?v=1`)).toBeNull(); // a path, never its query
    expect(address.parse(`${written('3')}//`)).toBeNull();
  });
});

describe('a poll’s addresses', () => {
  it('are each the address of one thing only', () => {
    for (const [name, address] of addresses) {
      const others = addresses.filter(([, other]) => other !== address);
      for (const [otherName, other] of others) {
        expect(other.parse(address.path(7)), `${name} read as ${otherName}`).toBeNull();
      }
    }
  });

  it('take a trailing slash on pages, as people type them, and never on files', () => {
    expect(parsePollPath('/poll-3/')).toBe(3);
    expect(printSheet.parse('/poll-3/print/')).toBe(3);
    expect(pollEmbed.parse('/embed/poll-3/')).toBe(3);
    expect(pollQrCode.parse('/qr/poll-3.svg/')).toBeNull();
    expect(pollPreviewImage.parse('/og/poll-3.png/')).toBeNull();
  });

  it('give the page through pollPath and parsePollPath', () => {
    expect(pollPath(42)).toBe('/poll-42');
    expect(parsePollPath('/poll-42')).toBe(42);
    expect(parsePollPath('/poll-')).toBeNull();
    expect(parsePollPath('/')).toBeNull();
  });
});
