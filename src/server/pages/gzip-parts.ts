/**
 * A cached page is compressed once, though each response writes its own nonce into it.
 *
 * The page's pieces between the nonces are each deflated once, on their own, ending on a byte
 * boundary without closing the stream (a sync flush), the last one closing it. A response
 * then strings them together with its nonce in between as "stored" (uncompressed) deflate
 * blocks, inside a gzip header and trailer. That is one valid gzip stream (RFC 1951, 1952):
 * a deflate stream is a sequence of blocks, and no piece refers back into another. Its CRC-32
 * is combined from the pieces' CRCs, computed once, and the nonce's, as zlib's crc32_combine
 * does: each response costs a few dozen bytes of work, not a compression.
 */
import zlib from 'node:zlib';

/** The pieces, deflated, with what the gzip trailer needs of each. */
export interface GzipParts {
  deflated: readonly Buffer[];
  crcs: readonly number[];
  /** x^(8·length) mod the CRC polynomial, for each piece: shifts a CRC past it. */
  shifts: readonly number[];
  length: number;
}

const POLYNOMIAL = 0xedb88320;

/** a·b modulo the CRC-32 polynomial, both in zlib's reflected bit order. */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  let factor = b;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) product ^= factor;
    factor = factor & 1 ? (factor >>> 1) ^ POLYNOMIAL : factor >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) mod p, for k = 0..31. */
const POWERS: number[] = [0x40000000];
for (let k = 1; k < 32; k += 1) POWERS.push(multiplyModP(POWERS[k - 1] ?? 0, POWERS[k - 1] ?? 0));

/** x^(8n) mod p: appending n bytes shifts a CRC by this. */
function byteShift(n: number): number {
  let result = 0x80000000; // x^0
  for (let k = 3, rest = n; rest > 0; k += 1, rest = Math.floor(rest / 2)) {
    if (rest % 2 === 1) result = multiplyModP(POWERS[k % 32] ?? 0, result);
  }
  return result;
}

/** The CRC-32 of A followed by B, from crc(A), crc(B) and B's shift. */
const combine = (crcA: number, crcB: number, shiftB: number) => (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;

export function gzipParts(pieces: readonly Buffer[]): GzipParts {
  const last = pieces.length - 1;
  return {
    deflated: pieces.map((piece, i) =>
      zlib.deflateRawSync(piece, {
        level: zlib.constants.Z_BEST_COMPRESSION,
        finishFlush: i === last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
      }),
    ),
    crcs: pieces.map((piece) => zlib.crc32(piece)),
    shifts: pieces.map((piece) => byteShift(piece.length)),
    length: pieces.reduce((sum, piece) => sum + piece.length, 0),
  };
}

/** Magic, deflate, no flags, no time, no extra flags, unknown system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The gzip stream of the pieces joined with `filler` between each two (at most 65,535 bytes). */
export function joinGzip(parts: GzipParts, filler: Buffer): Buffer {
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(filler.length, 1); // BFINAL 0, BTYPE 00: a stored block of this length
  stored.writeUInt16LE(~filler.length & 0xffff, 3);
  const fillerCrc = zlib.crc32(filler);
  const fillerShift = byteShift(filler.length);

  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  for (const [i, deflated] of parts.deflated.entries()) {
    if (i > 0) {
      chunks.push(stored, filler);
      crc = combine(crc, fillerCrc, fillerShift);
    }
    chunks.push(deflated);
    crc = i === 0 ? (parts.crcs[0] ?? 0) : combine(crc, parts.crcs[i] ?? 0, parts.shifts[i] ?? 0);
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE((parts.length + filler.length * (parts.deflated.length - 1)) % 2 ** 32, 4);
  chunks.push(trailer);
  return Buffer.concat(chunks);
}
