/**
 * Every call to the server: JSON in and out, cookies included, no retries. Two ways to fail:
 * the server refused (ApiRequestError, carrying the server's own sentence, which the toast
 * shows), or no answer from the site came back (NetworkError: the toast shows the spec's
 * sentence for the action, since "Failed to fetch" means nothing to a teacher).
 */
import { ERROR_CODES, type ApiError, type ErrorCode } from '../../shared/api.js';

/** The site's API answered with an error status, a sentence for people and a code for code. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/**
 * No answer from the site's API: the request failed on the way (offline, a dropped
 * connection, a blocked address), or something else answered instead of the API (a proxy's
 * or gateway's error page, a captive portal), which is what an answer without the API's JSON
 * means. `status` is that stranger's status, when there was one.
 */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function apiRequest<T>(
  path: string,
  init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown } = {},
): Promise<T> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'include',
      headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    text = await response.text();
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  }
  const body = text === '' ? null : parseJson(text);
  if (!response.ok) {
    const { message, code } = (body ?? {}) as Partial<ApiError>;
    if (typeof message === 'string' && message) throw new ApiRequestError(response.status, knownCode(code), message);
    // Not the API's JSON: keep "status: text", as the spec words it, for whoever debugs it.
    throw new NetworkError(`${response.status}: ${text || response.statusText}`, response.status);
  }
  if (body === undefined) throw new NetworkError(`${response.status}: the answer is not JSON`, response.status);
  return body as T;
}

/** A code this client knows; an older or newer server's unknown one reads as a plain bad request. */
function knownCode(code: unknown): ErrorCode {
  return ERROR_CODES.find((known) => known === code) ?? 'bad-request';
}

/** Whether the server refused the call for the reason `code` names. */
export function isRefusal(error: unknown, code: ErrorCode): error is ApiRequestError {
  return error instanceof ApiRequestError && error.code === code;
}

/**
 * What a toast says about a failed call: the server's own sentence when it refused, else
 * `fallback`, the spec's sentence for the action (a network failure, or anything unexpected).
 */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError ? error.message : fallback;
}

/** Whether sending the same request again may work: it never arrived, or the server faltered. */
export function isRetryable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiRequestError && error.status >= 500);
}
