/**
 * Per-address limits on the calls that write. Generous on purpose: a whole school often
 * reaches the site through one public address. All write calls share one budget per address
 * and minute. With REDIS_URL the instances count together in Redis (the rate-limit plugin's
 * Redis store); without it each instance counts on its own. When Redis cannot be reached the
 * site keeps serving without the limit, logs it once, and says so in /readyz, until Redis is
 * back: a vote is never refused because Redis is away.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { tooManyRequests } from './errors.js';

export interface SharedLimits {
  url: string;
  keyPrefix: string;
}

const REDIS_DOWN =
  'Redis is unreachable: the write limit is not enforced until it is back (votes and other writes are served).';

/**
 * A Redis connection that never holds a request: commands fail at once while it is down.
 * `problem` is told what is wrong (for /readyz), and null once Redis answers.
 */
export function connectRedis(
  shared: SharedLimits,
  log: FastifyBaseLogger,
  problem: (message: string | null) => void,
): Redis {
  const redis = new Redis(shared.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Until the first connection, the limit is not counted either.
  problem('Connecting to Redis: the write limit is not enforced until it answers.');
  let down = false;
  redis.on('error', (error: Error) => {
    problem(REDIS_DOWN);
    if (!down) log.error({ err: error }, 'Redis is unreachable; serving without the shared write limit');
    down = true;
  });
  redis.on('ready', () => {
    problem(null);
    if (down) log.info('Redis is reachable again; the shared write limit is back');
    down = false;
  });
  return redis;
}

/** Limits every route registered in `scope` (0 turns the limit off). */
export async function limitWrites(scope: FastifyInstance, perMinute: number, redis?: Redis, keyPrefix?: string) {
  if (perMinute <= 0) return;
  await scope.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: '1 minute',
    ...(redis ? { redis, nameSpace: keyPrefix, skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`Too many requests from your network. Please wait ${context.after} and try again.`),
  });
}
