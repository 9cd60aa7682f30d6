import type { FastifyInstance } from 'fastify';

/**
 * Whether this instance should get new requests. A load balancer asks `/readyz`: 503 while the
 * instance drains after SIGTERM, so traffic moves elsewhere before it stops. Problems that do
 * not stop it serving (Redis unreachable: limits fall back to this instance's own counts) are
 * listed in the body without taking it out of rotation.
 */
export class Readiness {
  #draining: string | null = null;
  readonly #warnings = new Map<string, string>();

  /** Takes the instance out of rotation for good; `why` is shown in /readyz. */
  drain(why: string): void {
    this.#draining ??= why;
  }

  get draining(): string | null {
    return this.#draining;
  }

  /** Notes (or, with null, clears) a problem the instance serves through. */
  warn(topic: string, message: string | null): void {
    if (message === null) this.#warnings.delete(topic);
    else this.#warnings.set(topic, message);
  }

  get warnings(): string[] {
    return [...this.#warnings.values()];
  }
}

/**
 * While the instance drains, every answer closes its connection, so a proxy's keep-alive
 * connections move to the other instances.
 */
export function closeConnectionsWhileDraining(app: FastifyInstance, readiness: Readiness): void {
  // A callback hook: it runs on every response, and an async one costs each a promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (readiness.draining !== null) reply.header('connection', 'close');
    done(null, payload);
  });
}
