/**
 * Staff and series (issue 38, item 3): GET /api/admin/series lists every series with its runs;
 * PUT /api/admin/series/:id renames one and changes its tracker's slug, checked with can()
 * ('polls.write') and written to the audit log in the same transaction.
 */
import { adminSeries } from '../../shared/schemas/admin-answers.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import { z } from '../../shared/zod.js';
import type { FastifyPluginAsync } from 'fastify';
import { seriesChange, seriesIdParams } from '../../shared/series-schemas.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { conflict, notFound } from '../http/errors.js';
import { listSeriesWithRuns, renameSeries } from '../polls/series.repository.js';
import type { AdminAuth } from '../staff/admin-auth.service.js';
import { staffApi } from '../staff/admin-guard.js';
import { auditedChanges, staffReads } from '../staff/staff-calls.js';

export const seriesAdminRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  db: Db;
  clock: Clock;
  publicUrl: string;
}> = async (app, { auth, db, clock, publicUrl }) => {
  const now = () => clock.now();
  const api = staffApi(app, auth, publicUrl);

  staffReads(api).get('/api/admin/series', {
    permission: 'polls.read',
    summary: 'Every series, with its runs',
    schema: { response: { 200: z.array(adminSeries) } },
    read: async () => {
      const { series, runs } = await listSeriesWithRuns(db);
      return series.map((row) => ({
        ...row,
        runs: runs
          .filter((run) => run.seriesId === row.id)
          .map(({ pollNumber, liveDate, status }) => ({ pollNumber, liveDate, status })),
      }));
    },
  });

  auditedChanges(api, now).put('/api/admin/series/:id', {
    permission: 'polls.write',
    summary: 'Name a series and its tracker address',
    schema: { params: seriesIdParams, body: seriesChange, response: { 200: confirmation } },
    audit: ({ params: { id }, body: { name, slug } }) => [
      'series.edit',
      `Named the series "${name}" at /trackers/${slug}`,
      `series ${id}`,
    ],
    handle: async ({ params: { id }, body: { name, slug } }, audit) => {
      const outcome = await db.transaction().execute(async (trx) => {
        const result = await renameSeries(trx, id, { name, slug }, now());
        if (result === 'updated') await audit(trx);
        return result;
      });
      if (outcome === 'not-found') throw notFound('Series not found');
      if (outcome === 'slug-taken') throw conflict('Another series already has that address.');
      return { message: 'Series saved.' };
    },
  });
};
