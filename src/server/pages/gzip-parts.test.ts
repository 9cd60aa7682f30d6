import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipParts, joinGzip } from './gzip-parts.js';

describe('a page compressed once around its nonces', () => {
  const join = (pieces: Buffer[], filler: Buffer) => {
    const out: Buffer[] = [];
    for (const [i, piece] of pieces.entries()) out.push(...(i > 0 ? [filler, piece] : [piece]));
    return Buffer.concat(out);
  };

  it('inflates to the pieces joined with each response’s own filler, whatever the pieces hold', () => {
    const cases: Buffer[][] = [
      [Buffer.from('<html>only one piece</html>')],
      [Buffer.from('<style nonce="'), Buffer.from('">body{}</style>'), Buffer.from('" data-x>end')],
      [Buffer.alloc(0), Buffer.from('between'), Buffer.alloc(0)],
      // Long, repetitive and random pieces: back-references and stored blocks of the compressor's own.
      [Buffer.from('abc'.repeat(30_000)), randomBytes(70_000), Buffer.from('<p>x</p>'.repeat(5_000))],
    ];
    for (const pieces of cases) {
      const parts = gzipParts(pieces);
      for (const filler of [Buffer.from(randomBytes(16).toString('base64')), Buffer.alloc(0), randomBytes(300)]) {
        const body = joinGzip(parts, filler);
        // gunzip checks the trailer's CRC-32 and length: a wrong one throws.
        expect(zlib.gunzipSync(body).equals(join(pieces, filler))).toBe(true);
      }
    }
  });

  it('is smaller than the page', () => {
    const page = [Buffer.from('<head>'.repeat(2000)), Buffer.from('<body>'.repeat(2000))];
    const body = joinGzip(gzipParts(page), Buffer.from('n'.repeat(24)));
    expect(body.length).toBeLessThan(page[0]!.length / 10);
  });
});
