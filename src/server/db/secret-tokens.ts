/**
 * Secrets the site hands out, in a cookie or a link (a staff session, the links in a
 * subscriber's e-mails), are stored by their SHA-256 only, so a copy of the database holds none
 * that works. A token is 256 random bits: nobody finds it from its hash, so a plain hash does
 * (a salt or a slow hash guards guessable secrets such as passwords).
 */
import { createHash, randomBytes } from 'node:crypto';

export const newSecretToken = () => randomBytes(32).toString('base64url');

export const hashSecretToken = (token: string) => createHash('sha256').update(token).digest('hex');
