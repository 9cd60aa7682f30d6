/**
 * Passkeys (WebAuthn, through @simplewebauthn/server 14): discoverable credentials with user
 * verification required. Each ceremony's challenge is kept in the database for two minutes and
 * taken once, so a ceremony begun on one instance finishes on any other, and never twice.
 * Stored per passkey: its id, public key, counter and transports; nothing that signs.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { appendAudit } from './audit.js';
import { actorOf, type AdminAuth, type SignInResult, type SignedIn } from './admin-auth.service.js';
import { deleteSessionsOf, findStaffById } from './staff.repository.js';
import {
  deletePasskey,
  findPasskey,
  insertChallenge,
  insertPasskey,
  passkeyIdsOf,
  takeChallenge,
  trimChallenges,
  usePasskey,
} from './passkeys.repository.js';
import { findLiveLink } from './staff-links.repository.js';
import { hashSecretToken } from '../db/secret-tokens.js';

const CHALLENGE_LIFETIME_MS = 2 * 60_000;
/** Challenges kept per network (sign-in) or person (a new passkey): a few tabs' worth, not a flood's. */
const CHALLENGES_KEPT = 10;

/**
 * The WebAuthn library and its ASN.1 and COSE dependencies, loaded at the first ceremony rather
 * than at start: every process that never sees a passkey (a command, an outbox worker) starts faster.
 */
const webauthn = () => import('@simplewebauthn/server');

export interface PasskeysDeps {
  db: Db;
  clock: Clock;
  auth: AdminAuth;
  publicUrl: string;
  siteName: string;
}

/** The challenge a response answers, read from its client data (verified again by the library). */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  const data = response.response?.clientDataJSON;
  if (typeof data !== 'string' || data.length > 4096) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

export function createPasskeys({ db, clock, auth, publicUrl, siteName }: PasskeysDeps) {
  const url = new URL(publicUrl);
  const rpID = url.hostname;
  const origin = url.origin;

  async function registrationOptions(user: { email: string; name: string }, excludeIds: string[]) {
    const { generateRegistrationOptions } = await webauthn();
    return generateRegistrationOptions({
      rpName: siteName,
      rpID,
      userName: user.email,
      userDisplayName: user.name,
      userID: randomBytes(16),
      attestationType: 'none',
      excludeCredentials: excludeIds.map((id) => ({ id })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: CHALLENGE_LIFETIME_MS,
    });
  }

  const expiry = () => new Date(clock.now().getTime() + CHALLENGE_LIFETIME_MS).toISOString();

  async function verifyRegistration(response: Record<string, unknown>, expectedChallenge: string) {
    const { verifyRegistrationResponse } = await webauthn();
    try {
      const verified = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
      });
      return verified.verified ? verified.registrationInfo : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    rpID,
    origin,

    /** Options for a signed-in person adding a passkey. */
    async registerOptions(person: SignedIn) {
      const options = await registrationOptions(person, await passkeyIdsOf(db, person.id));
      await insertChallenge(
        db,
        { challenge: options.challenge, purpose: 'register', staffId: person.id, linkId: null },
        expiry(),
      );
      await trimChallenges(db, { column: 'staff_id', value: person.id }, CHALLENGES_KEPT, clock.now().toISOString());
      return options;
    },

    async register(person: SignedIn, name: string, response: Record<string, unknown>): Promise<boolean> {
      const challenge = challengeOf(response);
      const now = clock.now();
      const taken = challenge && (await takeChallenge(db, challenge, 'register', now.toISOString()));
      if (!challenge || !taken || taken.staffId !== person.id) return false;
      const info = await verifyRegistration(response, challenge);
      if (!info) return false;
      await db.transaction().execute(async (trx) => {
        await insertPasskey(
          trx,
          {
            id: info.credential.id,
            staffId: person.id,
            name,
            publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
            counter: info.credential.counter,
            transports: info.credential.transports ?? [],
          },
          now.toISOString(),
        );
        await appendAudit(trx, now, actorOf(person), {
          action: 'passkey.add',
          target: `staff ${person.id}`,
          summary: `Added a passkey named "${name}"`,
        });
      });
      return true;
    },

    /** Removes one of the person's passkeys, and ends their other sessions: one may have been its. */
    async remove(person: SignedIn, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await deletePasskey(trx, id, person.id))) return false;
        await deleteSessionsOf(trx, person.id, { except: person.sessionId });
        await appendAudit(trx, clock.now(), actorOf(person), {
          action: 'passkey.remove',
          target: `staff ${person.id}`,
          summary: 'Removed a passkey; their other sessions ended',
        });
        return true;
      });
    },

    /** Options for an invited person's first passkey, bound to the invite. */
    async inviteOptions(token: string, displayName: string) {
      const link = await findLiveLink(db, hashSecretToken(token), 'invite', clock.now().toISOString());
      if (!link?.email) return undefined;
      const options = await registrationOptions({ email: link.email, name: displayName }, []);
      await insertChallenge(
        db,
        { challenge: options.challenge, purpose: 'invite', staffId: null, linkId: link.id },
        expiry(),
      );
      return options;
    },

    /** Accepts an invite with the passkey the browser just made. */
    async acceptInvite(
      token: string,
      displayName: string,
      response: Record<string, unknown>,
      browser: string,
    ): Promise<SignInResult | 'gone' | 'taken' | 'refused'> {
      const challenge = challengeOf(response);
      const now = clock.now();
      const taken = challenge && (await takeChallenge(db, challenge, 'invite', now.toISOString()));
      if (!challenge || !taken) return 'refused';
      const link = await findLiveLink(db, hashSecretToken(token), 'invite', now.toISOString());
      if (!link || link.id !== taken.linkId) return 'gone';
      const info = await verifyRegistration(response, challenge);
      if (!info) return 'refused';
      return auth.acceptInvite(token, { displayName, password: null }, browser, (trx, staffId) =>
        insertPasskey(
          trx,
          {
            id: info.credential.id,
            staffId,
            name: 'First passkey',
            publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
            counter: info.credential.counter,
            transports: info.credential.transports ?? [],
          },
          now.toISOString(),
        ),
      );
    },

    /**
     * Options for signing in: no list of credentials, the authenticator offers its discoverable
     * ones. Each network keeps only its newest few challenges.
     */
    async signInOptions(address: string) {
      const { generateAuthenticationOptions } = await webauthn();
      const options = await generateAuthenticationOptions({
        rpID,
        userVerification: 'required',
        timeout: CHALLENGE_LIFETIME_MS,
      });
      const network = await auth.networkCode(address);
      await insertChallenge(
        db,
        { challenge: options.challenge, purpose: 'sign-in', staffId: null, linkId: null, network },
        expiry(),
      );
      await trimChallenges(db, { column: 'network', value: network }, CHALLENGES_KEPT, clock.now().toISOString());
      return options;
    },

    /**
     * Signs in with a passkey. Never throttled (a passkey cannot be guessed), and a refusal is
     * written nowhere: a loop of made-up answers leaves no row behind.
     */
    async signIn(
      response: Record<string, unknown>,
      browser: string,
      replacing?: string,
    ): Promise<SignInResult | 'refused'> {
      const challenge = challengeOf(response);
      const now = clock.now();
      const taken = challenge && (await takeChallenge(db, challenge, 'sign-in', now.toISOString()));
      const id = typeof response.id === 'string' ? response.id : '';
      const passkey = id ? await findPasskey(db, id) : undefined;
      const person = passkey ? await findStaffById(db, passkey.staffId) : undefined;
      if (!challenge || !taken || !passkey || !person || person.disabled) return 'refused';
      const { verifyAuthenticationResponse } = await webauthn();
      let verified;
      try {
        verified = await verifyAuthenticationResponse({
          response: response as unknown as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          credential: {
            id: passkey.id,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.counter,
            transports: passkey.transports,
          },
          requireUserVerification: true,
        });
      } catch {
        verified = undefined;
      }
      if (!verified?.verified) return 'refused';
      const { newCounter } = verified.authenticationInfo;
      return db.transaction().execute(async (trx) => {
        await usePasskey(trx, passkey.id, newCounter, now.toISOString());
        return auth.startSession(trx, person, browser, 'with a passkey', replacing);
      });
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
