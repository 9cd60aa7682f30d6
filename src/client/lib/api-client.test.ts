import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError, apiRequest, errorMessage, isRefusal, NetworkError } from './api-client.js';

/** A real server on loopback that answers each path with the status and body it names. */
const answers: Record<string, { status: number; body: string }> = {
  '/refused': {
    status: 409,
    body: JSON.stringify({ message: 'You have already voted on this poll.', code: 'already-voted' }),
  },
  '/newer-server': {
    status: 409,
    body: JSON.stringify({ message: 'A rule this client does not know.', code: 'some-future-rule' }),
  },
  '/proxy-page': { status: 502, body: '<html>Bad gateway</html>' },
  '/ok': { status: 200, body: JSON.stringify({ fine: true }) },
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const answer = answers[request.url ?? ''] ?? { status: 404, body: '' };
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(path: string): Promise<unknown> {
  try {
    await apiRequest(`${base}${path}`);
  } catch (error) {
    return error;
  }
  throw new Error(`${path} did not fail`);
}

describe('apiRequest', () => {
  it('carries the server’s code and sentence on a refusal', async () => {
    const error = await failure('/refused');
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(isRefusal(error, 'already-voted')).toBe(true);
    expect(isRefusal(error, 'voting-closed')).toBe(false);
    expect(errorMessage(error, 'fallback')).toBe('You have already voted on this poll.');
  });

  it('reads a code it does not know as a plain bad request, keeping the sentence', async () => {
    const error = await failure('/newer-server');
    expect(error).toMatchObject({ status: 409, code: 'bad-request', message: 'A rule this client does not know.' });
  });

  it('treats an answer without the API’s JSON as a network failure, with the action’s fallback', async () => {
    const error = await failure('/proxy-page');
    expect(error).toBeInstanceOf(NetworkError);
    expect(errorMessage(error, 'Failed to record your vote. Please try again.')).toBe(
      'Failed to record your vote. Please try again.',
    );
  });

  it('returns the JSON of a success', async () => {
    expect(await apiRequest(`${base}/ok`)).toEqual({ fine: true });
  });
});
