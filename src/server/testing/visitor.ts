/**
 * A browser as the server sees it: it keeps the cookies it is given and sends them back. Every
 * answer is checked against the API document (contract.ts).
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../db/connection.js';
import { VOTER_COOKIE, voterIdOfCookie } from '../voters/voter-cookie.js';
import { injectChecked } from './contract.js';
import { signedVoterCookie } from './voter-cookies.js';

export class Visitor {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** The voter id of this browser's voter cookie (the bare id, as the database stores it). */
  get voterId(): string | undefined {
    const cookie = this.cookies.get(VOTER_COOKIE);
    return (cookie && voterIdOfCookie(cookie)) ?? undefined;
  }

  /** Makes this a browser the server gave `voterId` to (at `issuedAt`, by default now): its cookie, signed. */
  async holdVoterId(db: Db, voterId: string, issuedAt = Date.now()): Promise<this> {
    this.cookies.set(VOTER_COOKIE, await signedVoterCookie(db, voterId, issuedAt));
    return this;
  }

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await injectChecked(this.app, {
      ...options,
      headers: { ...this.headers, ...(cookie ? { cookie } : {}), ...options.headers },
    });
    for (const set of response.cookies as { name: string; value: string }[]) this.cookies.set(set.name, set.value);
    return response;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, payload?: InjectOptions['payload']) {
    return this.request({ method: 'POST', url, ...(payload === undefined ? {} : { payload }) });
  }

  put(url: string, payload?: InjectOptions['payload']) {
    return this.request({ method: 'PUT', url, ...(payload === undefined ? {} : { payload }) });
  }

  delete(url: string) {
    return this.request({ method: 'DELETE', url });
  }

  vote(pollId: number, optionIndex: number, voterEmail = '') {
    return this.post(`/api/polls/${pollId}/vote`, { optionIndex, voterEmail });
  }
}
