/**
 * Starting and stopping the site: read the configuration, migrate the database, listen, and on
 * SIGTERM or SIGINT stop taking requests, finish the ones under way and close the database.
 */
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';

/** The built client, whether this file runs from src/server (tsx) or dist/server (node). */
export const BUILT_CLIENT_DIR = fileURLToPath(new URL('../../dist/client', import.meta.url));

/**
 * How long the requests under way get to finish after the instance stops listening. A client
 * still sending (or reading) by then is too slow for a vote page: its connection is closed.
 */
const SHUTDOWN_GRACE_MS = 10_000;

/** How long the stop may take once every connection is closed: longer is a fault. */
const SHUTDOWN_CLOSE_MS = 5_000;

export function readConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export async function startServer(config: Config, options: Omit<AppOptions, 'config'> = {}): Promise<FastifyInstance> {
  const app = await buildApp({ clientDir: BUILT_CLIENT_DIR, ...options, config });
  closeGracefully(app, config.shutdownDelayMs);
  await app.listen({ port: config.port, host: config.host });
  // The day's switch runs now (a poll may have come due while the site was down), then on time.
  app.jobs.start();
  app.log.info(
    { publicUrl: config.site.publicUrl, database: config.database.kind, timeZone: config.site.timeZone },
    `${config.site.siteName} is ready`,
  );
  return app;
}

/**
 * Drains, then stops: /readyz turns 503 at once (and every answer closes its connection), for
 * `delayMs` the instance still serves so a load balancer can notice, then it stops listening,
 * lets the requests under way finish, writes the votes received, and drops the connections
 * left over. Browsers open connections ahead of need that carry no request; Node does not
 * count them as idle, so without this the server would wait for them to time out (a minute).
 * A request still under way after SHUTDOWN_GRACE_MS loses its connection, and the instance
 * stops as cleanly as without it (exit code 0): one slow client is no failure of the instance.
 */
function closeGracefully(app: FastifyInstance, delayMs: number) {
  let requestsUnderWay = 0;
  app.server.on('request', (_request, response: ServerResponse) => {
    requestsUnderWay += 1;
    response.once('close', () => (requestsUnderWay -= 1));
  });

  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.readiness.drain(`This instance is shutting down (${signal}); it finishes the requests under way.`);
    app.log.info({ signal, delayMs }, 'draining');
    app.server.closeIdleConnections();
    setTimeout(() => stopListening(signal), delayMs);
  };

  const stopListening = (signal: NodeJS.Signals) => {
    app.log.info({ signal, requestsUnderWay }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.warn({ requestsUnderWay }, 'requests did not finish in time; closing their connections');
      app.server.closeAllConnections();
      setTimeout(() => {
        app.log.error('the instance did not stop after closing every connection; exiting');
        process.exit(1);
      }, SHUTDOWN_CLOSE_MS).unref();
    }, SHUTDOWN_GRACE_MS);
    deadline.unref();
    const sweep = setInterval(() => {
      if (requestsUnderWay === 0) app.server.closeAllConnections();
    }, 50);
    app.close().then(
      () => {
        clearInterval(sweep);
        clearTimeout(deadline);
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
