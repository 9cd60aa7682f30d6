/**
 * Per-address limits on the calls that write. Generous on purpose: a whole school often
 * reaches the site through one public address. All write calls share one budget per address
 * and minute. The counters live in this process: with several instances behind a load
 * balancer, each instance counts on its own.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { tooManyRequests } from './errors.js';

/** Limits every route registered in `scope` (0 turns the limit off). */
export async function limitWrites(scope: FastifyInstance, perMinute: number) {
  if (perMinute <= 0) return;
  await scope.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`Too many requests from your network. Please wait ${context.after} and try again.`),
  });
}
