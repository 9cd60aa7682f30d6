import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/connection.js';
import { unavailable } from '../http/errors.js';

/** For load balancers and uptime checks: 200 only when the database answers. */
export const healthRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get('/healthz', async (request) => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      throw unavailable('The database is not reachable.');
    }
    return { status: 'ok' };
  });
};
