/**
 * A document built once and sent many times (the open data): its bytes, its strong ETag, and
 * the same bytes compressed with Brotli or gzip once each, the first time a client takes that
 * coding, on zlib's threads rather than the one that answers requests. Each coding is its own
 * representation, so each has its own ETag (the document's hash, then `-br` or `-gzip`).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentCodingFor, type ContentCoding } from './content-coding.js';
import { etagOf, matchesEtag } from './etag.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Brotli's quality for documents: 11 takes seconds on megabytes (half a minute on a year's CSV
 * of open data) for a tenth less; 9 takes a fraction of a second, once per change, off the
 * thread that answers requests.
 */
const BROTLI_QUALITY = 9;

export class BuiltDocument {
  readonly #bytes: Buffer;
  readonly #etag: string;
  readonly #compressed = new Map<ContentCoding, Promise<Buffer>>();

  constructor(
    body: string,
    /** Its Content-Type. */
    readonly type: string,
  ) {
    this.#bytes = Buffer.from(body);
    this.#etag = etagOf(body);
  }

  /** The ETag of the document sent in `coding` (null: as it is). */
  etag(coding: ContentCoding | null): string {
    return coding === null ? this.#etag : `${this.#etag.slice(0, -1)}-${coding}"`;
  }

  /** The document's bytes in `coding`, compressed on first use (null: as it is). */
  bytes(coding: ContentCoding | null): Promise<Buffer> {
    if (coding === null) return Promise.resolve(this.#bytes);
    let compressed = this.#compressed.get(coding);
    if (!compressed) {
      compressed =
        coding === 'br'
          ? brotli(this.#bytes, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.#bytes.length,
              },
            })
          : gzip(this.#bytes, { level: 9 });
      this.#compressed.set(coding, compressed);
    }
    return compressed;
  }
}

/**
 * Sends `document` in the coding the client takes best, with its ETag and `cacheControl`, or
 * 304 when the client has it already.
 */
export async function sendBuilt(
  request: FastifyRequest,
  reply: FastifyReply,
  document: BuiltDocument,
  cacheControl = 'no-cache',
) {
  const coding = contentCodingFor(request.headers['accept-encoding']);
  const etag = document.etag(coding);
  reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'accept-encoding');
  if (matchesEtag(request, etag)) return reply.status(304).send();
  if (coding !== null) reply.header('content-encoding', coding);
  return reply.type(document.type).send(await document.bytes(coding));
}
