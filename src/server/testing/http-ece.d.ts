/** The part of http_ece (RFC 8188, no types of its own) the fake push service uses to read messages. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version: 'aes128gcm';
    /** The receiver's key pair: the browser's, which the sender encrypted for. */
    privateKey: ECDH;
    /** The subscription's 16-byte authentication secret. */
    authSecret: Buffer;
  }
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
