/**
 * The standard rate-limit headers (draft-ietf-httpapi-ratelimit-headers): every limit that counted
 * a call is named in `RateLimit-Policy` (`"writes";q=600;w=60`), and the one nearest to refusing
 * in `RateLimit` (`"writes";r=540;t=60`); a 429 also says `Retry-After` in seconds.
 *
 * A limit counts a whole network (a school behind one address), so what is left of it is partly
 * other people's doing. So that the headers never show what someone else did, `r` is rounded down
 * to a tenth of the quota and `t` up to a tenth of the window: a colleague's few calls, or the
 * moment they made them, do not show. Retry-After, on a 429 only, is exact (the refusal's message
 * says it too).
 *
 * A limit is reported where it is counted: `hitAddressLimit` (address-limits.ts) to the report
 * its caller hands down from the route (`reportTo(request)`), the write limit from its plugin's
 * own count (rate-limit.ts), the staff door from its hook. Handed down, not found through an
 * AsyncLocalStorage: on Node 20 one of those, once entered, costs every promise of the process a
 * hook call: a vote cost about 5% more CPU with it (docs/performance.md, "The vote's JavaScript").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** One limit's count as one call left it. */
export interface Counted {
  /** The policy's name in the headers: the limit's kind, `-48` for an IPv6 /48's tier. */
  name: string;
  max: number;
  windowMs: number;
  /** The calls counted in the window, this one included. */
  hits: number;
  /** Until the window ends. */
  resetMs: number;
}

const byRequest = new WeakMap<FastifyRequest, Counted[]>();

/** Where a limit's count goes: the RateLimit headers of the request it was counted for. */
export type CountReport = (counted: Counted) => void;

/** Reports a count to the call it was made for. */
export function reportCount(counted: Counted, request: FastifyRequest) {
  const counts = byRequest.get(request);
  if (counts) counts.push(counted);
  else byRequest.set(request, [counted]);
}

/** The report of `request`'s counts, for a service that counts a limit on its behalf. */
export function reportTo(request: FastifyRequest): CountReport {
  return (counted) => reportCount(counted, request);
}

const tenth = (whole: number) => Math.max(1, Math.ceil(whole / 10));

/** What is left of `counted`, as the headers say it: rounded down to a tenth of the quota. */
export function remainingSaid({ max, hits }: Counted): number {
  const left = Math.max(0, max - hits);
  const step = tenth(max);
  return Math.floor(left / step) * step;
}

/** Seconds to the window's end, as the headers say it: up to a tenth of the window, never past it. */
export function resetSaid({ windowMs, resetMs }: Counted): number {
  const window = Math.ceil(windowMs / 1000);
  const step = tenth(window);
  return Math.min(window, Math.ceil(Math.max(0, resetMs) / 1000 / step) * step);
}

/** `RateLimit` and `RateLimit-Policy` for a call's counts; none when nothing counted it. */
export function limitHeaderValues(
  counts: readonly Counted[],
): { RateLimit: string; 'RateLimit-Policy': string } | null {
  // A limit counted twice in a call (a retry inside it): its last count.
  const latest = [...new Map(counts.map((c) => [c.name, c])).values()];
  const nearest = latest.reduce<Counted | undefined>(
    (best, c) => (!best || c.max - c.hits < best.max - best.hits ? c : best),
    undefined,
  );
  if (!nearest) return null;
  return {
    RateLimit: `"${nearest.name}";r=${remainingSaid(nearest)};t=${resetSaid(nearest)}`,
    'RateLimit-Policy': latest.map((c) => `"${c.name}";q=${c.max};w=${Math.ceil(c.windowMs / 1000)}`).join(', '),
  };
}

/**
 * Answers each call's counts as headers. Added to the app before any route. A callback hook, and
 * nothing for a call no limit counted (most): an async hook costs every answer a promise.
 */
export function limitHeaders(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const counts = byRequest.get(request);
    if (counts) {
      const values = limitHeaderValues(counts);
      if (values) reply.header('RateLimit', values.RateLimit).header('RateLimit-Policy', values['RateLimit-Policy']);
      // A refusal says when to try again, whichever limit refused.
      const refused = counts.find((c) => c.hits > c.max);
      if (reply.statusCode === 429 && refused && !reply.hasHeader('retry-after')) {
        reply.header('Retry-After', String(Math.max(1, Math.ceil(refused.resetMs / 1000))));
      }
    }
    done(null, payload);
  });
}
