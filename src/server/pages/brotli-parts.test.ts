import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { brotliParts, joinBrotli } from './brotli-parts.js';

describe('a page compressed with Brotli once, its nonce sent as it is', () => {
  const join = (pieces: Buffer[], filler: Buffer) =>
    Buffer.concat(pieces.flatMap((piece, i) => (i > 0 ? [filler, piece] : [piece])));

  it('decodes to the pieces joined with each response’s own filler, whatever the pieces hold', () => {
    const cases: Buffer[][] = [
      [Buffer.from('<html>only one piece</html>')],
      [Buffer.from('<html><style>body{}</style>…'), Buffer.from('"</script></body></html>\n')],
      [Buffer.alloc(0), Buffer.from('between'), Buffer.alloc(0)],
      // A tail longer than one uncompressed meta-block holds (64 KiB), and random bytes.
      [Buffer.from('abc'.repeat(30_000)), randomBytes(70_000), Buffer.from('<p>x</p>'.repeat(10_000))],
    ];
    for (const pieces of cases) {
      const parts = brotliParts(pieces);
      for (const filler of [Buffer.from(randomBytes(16).toString('base64')), Buffer.alloc(0), randomBytes(300)]) {
        // The decoder refuses a stream that does not end properly, or has bytes after its end.
        expect(zlib.brotliDecompressSync(joinBrotli(parts, filler)).equals(join(pieces, filler))).toBe(true);
      }
    }
  });

  it('compresses what comes before the nonce', () => {
    const page = [Buffer.from('<head>'.repeat(2000)), Buffer.from('</body>')];
    const body = joinBrotli(brotliParts(page), Buffer.from('n'.repeat(24)));
    expect(body.length).toBeLessThan(page[0]!.length / 10);
  });
});
