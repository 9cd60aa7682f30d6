/**
 * Trackers in the API and the open data (issue 38, item 2): GET /api/trackers, GET
 * /api/trackers/:slug, and each tracker as /data/trackers/<slug>.json and .csv (CC BY 4.0,
 * readable from any origin, with an ETag).
 */
import type { FastifyPluginAsync } from 'fastify';
import { OPEN_DATA_LICENSE } from '../../shared/open-data.js';
import { tracker, trackerSummary } from '../../shared/schemas/tracker-answers.js';
import { trackerSlugParams } from '../../shared/series-schemas.js';
import type { Tracker, TrackerSummary } from '../../shared/trackers.js';
import { BuiltDocument, sendBuilt } from '../http/built-document.js';
import { foundOr404, notFound } from '../http/errors.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { trackerCsv, trackerJson } from '../open-data/tracker-data.js';
import type { OpenDataSite } from '../open-data/formats.js';
import type { TrackersService } from './trackers.service.js';
import { z } from '../../shared/zod.js';

const TRACKER_NOT_FOUND = 'Tracker not found';
const DATA_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.(json|csv)$/;

export const trackersRoutes: FastifyPluginAsync<{ trackers: TrackersService; site: OpenDataSite }> = async (
  app,
  { trackers, site },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/trackers',
    { schema: { summary: 'Trackers: questions asked at least twice', response: { 200: z.array(trackerSummary) } } },
    async (): Promise<TrackerSummary[]> => trackers.list(),
  );

  api.get(
    '/api/trackers/:slug',
    {
      schema: {
        summary: 'One tracker: every run of its question, and what changed since the previous run',
        params: trackerSlugParams,
        response: { 200: tracker },
      },
    },
    async (request): Promise<Tracker> => foundOr404(await trackers.tracker(request.params.slug), TRACKER_NOT_FOUND),
  );

  /**
   * Each tracker file's document as last sent, by file name: built and compressed again only
   * when its text changes (a new run, a staff edit), never per request. At most one per series
   * and format, since only a tracker's own name reaches it.
   */
  const built = new Map<string, { body: string; document: BuiltDocument }>();
  const documentOf = (file: string, body: string, type: string) => {
    const kept = built.get(file);
    if (kept?.body === body) return kept.document;
    const document = new BuiltDocument(body, type);
    built.set(file, { body, document });
    return document;
  };

  app.get<{ Params: { file: string } }>('/data/trackers/:file', async (request, reply) => {
    const match = DATA_FILE.exec(request.params.file);
    const tracker = match?.[1] ? await trackers.tracker(match[1]) : undefined;
    if (!match || !tracker) throw notFound(TRACKER_NOT_FOUND);
    const document =
      match[2] === 'json'
        ? documentOf(match[0], trackerJson(site, tracker), 'application/json; charset=utf-8')
        : documentOf(match[0], trackerCsv(tracker), 'text/csv; charset=utf-8; header=present');
    reply
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('link', `<${OPEN_DATA_LICENSE.url}>; rel="license"`);
    if (match[2] === 'csv') reply.header('content-disposition', `attachment; filename="tracker-${match[1]}.csv"`);
    return sendBuilt(request, reply, document);
  });
};
