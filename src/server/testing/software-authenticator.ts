/**
 * A passkey authenticator in software, for server tests that cannot run a browser (two server
 * instances finishing one ceremony): it answers WebAuthn options as a platform authenticator
 * would, with "none" attestation and ES256 keys. The browser tests use Chromium's own virtual
 * authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, { key: KeyObject; counter: number; userHandle: string }>();

  constructor(
    private readonly origin: string,
    private readonly rpID: string,
    /** false: an authenticator that cannot verify its user (no PIN, no biometrics). */
    private readonly verifiesUser = true,
  ) {}

  private flags(extra = 0) {
    return FLAG_USER_PRESENT | (this.verifiesUser ? FLAG_USER_VERIFIED : 0) | extra;
  }

  private clientData(type: string, challenge: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Answers registration options (navigator.credentials.create) with a new credential. */
  register(options: { challenge: string; user: { id: string } }) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
      ]),
    );
    const id = randomBytes(16);
    const counter = Buffer.alloc(4);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(this.rpID),
      Buffer.from([this.flags(FLAG_ATTESTED_DATA)]),
      counter,
      Buffer.alloc(16),
      idLength,
      id,
      Buffer.from(cose),
    ]);
    const attestation: Parameters<typeof isoCBOR.encode>[0] = new Map<
      string,
      string | Uint8Array | Map<string, number>
    >([
      ['fmt', 'none'],
      ['attStmt', new Map<string, number>()],
      ['authData', new Uint8Array(authData)],
    ]);
    const attestationObject = isoCBOR.encode(attestation);
    this.credentials.set(b64url(id), { key: privateKey, counter: 0, userHandle: options.user.id });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers authentication options (navigator.credentials.get) with credential `id`, or the first. */
  authenticate(options: { challenge: string }, id = [...this.credentials.keys()][0] ?? '') {
    const credential = this.credentials.get(id);
    if (!credential) throw new Error('no such credential');
    credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(this.rpID), Buffer.from([this.flags()]), counter]);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.key);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
