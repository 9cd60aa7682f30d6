import { describe, expect, it } from 'vitest';
import { contentCodingFor } from './content-coding.js';

describe('contentCodingFor', () => {
  it('reads Accept-Encoding as browsers and proxies write it', () => {
    expect(contentCodingFor('gzip, deflate, br, zstd')).toBe('br');
    expect(contentCodingFor('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe('br');
    expect(contentCodingFor('gzip;q=1.0, br;q=0.5')).toBe('gzip');
    expect(contentCodingFor('gzip, deflate')).toBe('gzip');
    expect(contentCodingFor('*')).toBe('br');
    expect(contentCodingFor('GZIP')).toBe('gzip');
    expect(contentCodingFor('BR;Q=0.9')).toBe('br');
    expect(contentCodingFor('br;q=0, *')).toBe('gzip');
    expect(contentCodingFor(undefined)).toBeNull();
    expect(contentCodingFor('')).toBeNull();
    expect(contentCodingFor('identity')).toBeNull();
    expect(contentCodingFor('deflate, zstd')).toBeNull();
    expect(contentCodingFor('gzip;q=0')).toBeNull();
    expect(contentCodingFor('gzip;q=0, br;q=0, *')).toBeNull();
    expect(contentCodingFor('*;q=0')).toBeNull();
    expect(contentCodingFor('br;q=nonsense, gzip;q=0.3')).toBe('gzip');
    // Asked again (each header is read once, then remembered): the same answers.
    expect(contentCodingFor('gzip, deflate')).toBe('gzip');
    expect(contentCodingFor('gzip;q=0')).toBeNull();
  });
});
