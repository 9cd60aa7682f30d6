/**
 * Every call to the server: JSON in and out, cookies included, no retries. A refused call
 * throws an ApiRequestError carrying the server's own message, which ends up in a toast.
 */
import type { ApiError } from '../../shared/api.js';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export async function apiRequest<T>(
  path: string,
  init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'include',
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    let message = `${response.status}: ${text || response.statusText}`;
    try {
      message = (JSON.parse(text) as ApiError).message || message;
    } catch {
      // not JSON: keep "status: text", as the spec words it
    }
    throw new ApiRequestError(response.status, message);
  }
  return (text === '' ? null : JSON.parse(text)) as T;
}

/** The message of whatever was thrown, for a toast; `fallback` when there is none. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
