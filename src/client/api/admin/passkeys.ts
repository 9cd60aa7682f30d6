/**
 * Passkey ceremonies in the browser. @simplewebauthn/browser is imported only when a person
 * presses a passkey button on an admin screen, so no other page loads it.
 */
import type { AdminSession, Confirmation } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

// Types only: erased from the build, so the library still loads only when a ceremony starts.
import type {
  PublicKeyCredentialCreationOptionsJSON as CreationOptions,
  PublicKeyCredentialRequestOptionsJSON as RequestOptions,
} from '@simplewebauthn/browser';

const browserLibrary = () => import('@simplewebauthn/browser');

export async function signInWithPasskey(): Promise<AdminSession> {
  const { startAuthentication } = await browserLibrary();
  const optionsJSON = await apiRequest<RequestOptions>('/api/admin/passkeys/sign-in/options', { method: 'POST' });
  const response = await startAuthentication({ optionsJSON });
  return apiRequest<AdminSession>('/api/admin/passkeys/sign-in', { method: 'POST', body: { response } });
}

export async function addPasskey(name: string): Promise<Confirmation> {
  const { startRegistration } = await browserLibrary();
  const optionsJSON = await apiRequest<CreationOptions>('/api/admin/passkeys/register/options', { method: 'POST' });
  const response = await startRegistration({ optionsJSON });
  return apiRequest<Confirmation>('/api/admin/passkeys', { method: 'POST', body: { name, response } });
}

/** An invited person's first passkey: made, then sent with the acceptance. */
export async function acceptInviteWithPasskey(token: string, displayName: string): Promise<AdminSession> {
  const { startRegistration } = await browserLibrary();
  const optionsJSON = await apiRequest<CreationOptions>('/api/admin/invites/passkey-options', {
    method: 'POST',
    body: { token, displayName },
  });
  const passkey = await startRegistration({ optionsJSON });
  return apiRequest<AdminSession>('/api/admin/invites/accept', {
    method: 'POST',
    body: { token, displayName, passkey },
  });
}
