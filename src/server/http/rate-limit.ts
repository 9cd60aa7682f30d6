/**
 * Per-address limits on the calls that write. Generous on purpose: a whole school often
 * reaches the site through one public address. The counters live in this process; with
 * several instances behind a load balancer each instance counts on its own.
 */
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

export async function registerRateLimit(app: FastifyInstance) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        429,
        `Too many requests from your network. Please wait ${context.after} and try again.`,
      ),
  });
}

/** Route config for a write call: all write calls share one budget per address. */
export function writeRateLimit(perMinute: number): { rateLimit?: RateLimitOptions } {
  return perMinute > 0 ? { rateLimit: { max: perMinute, timeWindow: '1 minute', groupId: 'writes' } } : {};
}
