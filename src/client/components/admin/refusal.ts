import { ApiRequestError } from '../../lib/api-client.js';

/**
 * What a failed staff call says: the server's own words, a line for a passkey prompt the person
 * closed, or `unreached` when no answer came.
 */
export function refusalWords(error: unknown, unreached: string): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.name === 'NotAllowedError') return 'The passkey request was cancelled.';
  return unreached;
}
