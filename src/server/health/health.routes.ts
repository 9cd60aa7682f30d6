import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/connection.js';
import { unavailable } from '../http/errors.js';
import { z } from '../../shared/zod.js';

const warnings = z.array(z.string()).meta({ description: 'Problems served through, such as Redis unreachable.' });
const ready = z.object({ status: z.literal('ready'), warnings }).meta({ id: 'Ready' });
const draining = z
  .object({ status: z.literal('draining'), code: z.literal('unavailable'), message: z.string(), warnings })
  .meta({ id: 'Draining' });
import type { Readiness } from './readiness.js';

/**
 * `/healthz` is liveness: 200 while the process and its database answer. `/readyz` is for a
 * load balancer: 503 while this instance drains after SIGTERM, with the reason; it lists
 * problems the instance serves through (such as Redis being unreachable) without failing.
 */
export const healthRoutes: FastifyPluginAsync<{ db: Db; readiness: Readiness }> = async (app, { db, readiness }) => {
  async function databaseAnswers(log: { error: (o: object, m: string) => void }) {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      log.error({ err: error }, 'health check: database unreachable');
      throw unavailable('The database is not reachable.');
    }
  }

  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness: the process and its database answer',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (request) => {
      await databaseAnswers(request.log);
      return { status: 'ok' };
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness, for load balancers',
        description: '503 while this instance drains after SIGTERM.',
        response: { 200: ready, 503: draining },
      },
    },
    async (request, reply) => {
      const { warnings, draining } = readiness;
      reply.header('cache-control', 'no-store');
      if (draining !== null) {
        reply.status(503);
        return { status: 'draining', code: 'unavailable', message: draining, warnings };
      }
      await databaseAnswers(request.log);
      return { status: 'ready', warnings };
    },
  );
};
