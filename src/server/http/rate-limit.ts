/**
 * Per-address limits on the calls that write. Generous on purpose: a whole school often
 * reaches the site through one public address. All write calls share one budget per network
 * (an IPv4 address, an IPv6 /64) and minute, and an IPv6 /48 WIDE_TIER_FACTOR times it; each is
 * counted under a keyed hash with the day's address key (address-limits.ts), never the address. With REDIS_URL the instances count together in Redis (the rate-limit plugin's
 * Redis store); without it each instance counts on its own. While Redis cannot be reached, or
 * stops answering, each instance counts on its own again, logs it once, and says so in /readyz,
 * until Redis is back: a vote never waits for Redis.
 */
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { addressLimit, type KeyedHash } from './address-limits.js';
import { tooManyRequests } from './errors.js';
import { reportCount } from './limit-headers.js';

export interface SharedLimits {
  url: string;
  keyPrefix: string;
}

const REDIS_DOWN =
  'Redis is unreachable: each instance counts the write limit on its own until it is back (writes are served).';

/**
 * How long a write waits for Redis's count. Redis answers a count in well under a millisecond;
 * one that has not answered in this time is stopped or cut off (a paused process, a network
 * dropping packets keeps the connection open and would hold every write until it resumes).
 */
const REDIS_ANSWER_TIMEOUT_MS = 500;

/**
 * A Redis connection that never holds a request: commands fail at once while it is down, and
 * after REDIS_ANSWER_TIMEOUT_MS while it does not answer; a connection that stops answering is
 * dropped and made again, and counts as down until Redis answers on the new one.
 * `problem` is told what is wrong (for /readyz), and null once Redis answers.
 */
export function connectRedis(
  shared: SharedLimits,
  log: FastifyBaseLogger,
  problem: (message: string | null) => void,
): Redis {
  const redis = new Redis(shared.url, {
    // A command is never queued for a connection to come: the write counts on this instance.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // Each command, the connection's readiness check included, gives up after this ...
    commandTimeout: REDIS_ANSWER_TIMEOUT_MS,
    // ... and the connection is dropped (then made again), so the writes after it do not wait.
    socketTimeout: REDIS_ANSWER_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Until the first connection, each instance counts on its own.
  problem('Connecting to Redis: each instance counts the write limit on its own until it answers.');
  let down = false;
  redis.on('error', (error: Error) => {
    problem(REDIS_DOWN);
    if (!down) log.error({ err: error }, 'Redis is unreachable; this instance counts the write limit on its own');
    down = true;
  });
  redis.on('ready', () => {
    problem(null);
    if (down) log.info('Redis is reachable again; the shared write limit is back');
    down = false;
  });
  return redis;
}

/**
 * The plugin's memory store, handing each request the count it made. The store answers with the
 * one object it keeps per address, and the plugin reads its count a microtask later: by then a
 * burst has counted further, so every request of a burst past the limit read the burst's total
 * and was refused, the first ones included (601 writes at once from one address: 601 refusals).
 */
class LocalCountStore implements FastifyRateLimitStore {
  private readonly store: FastifyRateLimitStore;

  /** The plugin makes one with its options, which this store does not need. */
  constructor(store?: unknown) {
    this.store = store instanceof LocalStore ? store : new LocalStore(false, false);
  }

  incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
    this.store.incr(
      key,
      (error, result) => callback(error, result && { current: result.current, ttl: result.ttl }),
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new LocalCountStore(this.store.child(routeOptions));
  }
}

/** Counts in Redis while it is connected and answers, and in this instance's memory otherwise. */
class SharedOrLocalStore implements FastifyRateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
  ) {}

  incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
    if (this.redis.status !== 'ready') {
      this.local.incr(key, callback, timeWindow, max);
      return;
    }
    const countHere: typeof callback = (error, result) => {
      if (error) this.local.incr(key, callback, timeWindow, max);
      else callback(null, result);
    };
    this.shared.incr(key, countHere, timeWindow, max);
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new SharedOrLocalStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions));
  }
}

function sharedOrLocalStore(redis: Redis, keyPrefix: string | undefined): FastifyRateLimitStoreCtor {
  return class extends SharedOrLocalStore {
    constructor() {
      super(redis, new RedisStore(false, false, redis, keyPrefix), new LocalCountStore());
    }
  };
}

const PLUGIN_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const;

/** Reads the plugin's count of a call, as it left it in its headers, and takes the headers off. */
function countOfTier(name: string): onRequestHookHandler {
  return (request, reply, done) => {
    const [max, remaining, reset] = PLUGIN_HEADERS.map((header) => reply.getHeader(header));
    // An address with no such tier (IPv4 has no /48) is not counted in it.
    if (max === undefined) {
      done();
      return;
    }
    for (const header of PLUGIN_HEADERS) reply.removeHeader(header);
    reportCount(
      {
        name,
        max: Number(max),
        windowMs: 60_000,
        hits: Number(max) - Number(remaining),
        resetMs: Number(reset) * 1000,
      },
      request,
    );
    done();
  };
}

/** Limits every route registered in `scope` (0 turns the limit off). */
export async function limitWrites(
  scope: FastifyInstance,
  perMinute: number,
  keyedHash: KeyedHash,
  redis?: Redis,
  keyPrefix?: string,
) {
  // Said in the API document of every route in the scope, whether or not the limit is on.
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, limits: ['writes', ...(route.config?.limits ?? [])] };
  });
  if (perMinute <= 0) return;
  // The site's one rule for every per-address limit (address-limits.ts), rather than the
  // plugin's own keys (the address itself): the limits cannot drift apart, no address is stored.
  const made = new WeakMap<FastifyRequest, ReturnType<typeof addressLimit>>();
  const tiers = (request: FastifyRequest) => {
    let limit = made.get(request);
    if (!limit) {
      limit = addressLimit(keyedHash, { kind: 'writes', address: request.ip, max: perMinute, windowMs: 60_000 });
      made.set(request, limit);
    }
    return limit;
  };
  // One registration per tier, each its own count: the network's, then (IPv6) its /48's.
  for (const tier of [0, 1]) {
    const name = tier === 0 ? 'writes' : 'writes-48';
    await scope.register(rateLimit, {
      // The plugin's own headers (draft 03's names) are read into the standard ones (limit-headers.ts)
      // right after its count, and taken off; on a 429 it says only Retry-After.
      enableDraftSpec: true,
      addHeaders: {
        'ratelimit-limit': false,
        'ratelimit-remaining': false,
        'ratelimit-reset': false,
        'retry-after': true,
      },
      global: true,
      max: async (request) => (await tiers(request)).tiers[tier]?.max ?? perMinute,
      timeWindow: '1 minute',
      keyGenerator: async (request) => (await tiers(request)).tiers[tier]?.key ?? '',
      // An IPv4 client has no /48.
      allowList: (_request, key) => key === '',
      store: redis ? sharedOrLocalStore(redis, keyPrefix) : LocalCountStore,
      errorResponseBuilder: (request, context) => {
        reportCount({ name, max: context.max, windowMs: 60_000, hits: context.max + 1, resetMs: context.ttl }, request);
        return tooManyRequests(`Too many requests from your network. Please wait ${context.after} and try again.`);
      },
    });
    // The plugin counts in each route's own onRequest hooks (added as the route is): read its count after it.
    scope.addHook('onRoute', (route) => {
      route.onRequest = [route.onRequest ?? []].flat().concat(countOfTier(name));
    });
  }
}
