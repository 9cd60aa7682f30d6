/**
 * The open data: GET /data/polls.json, /data/polls.csv and /feed.xml, each with an ETag (304
 * when unchanged), readable from any origin (it is public and licensed for reuse), and a
 * Link header naming the licence.
 */
import type { FastifyPluginAsync } from 'fastify';
import { OPEN_DATA_LICENSE, OPEN_DATA_PATHS } from '../../shared/open-data.js';
import { sendWithEtag } from '../http/etag.js';
import { atomFeed, openDataCsv, openDataJson, type OpenDataSite } from './formats.js';
import type { OpenDataService } from './open-data.service.js';

export const openDataRoutes: FastifyPluginAsync<{ openData: OpenDataService; site: OpenDataSite }> = async (
  app,
  { openData, site },
) => {
  const documents = [
    { path: OPEN_DATA_PATHS.json, type: 'application/json; charset=utf-8', write: openDataJson },
    { path: OPEN_DATA_PATHS.csv, type: 'text/csv; charset=utf-8; header=present', write: openDataCsv },
    { path: OPEN_DATA_PATHS.feed, type: 'application/atom+xml; charset=utf-8', write: atomFeed },
  ];
  for (const { path, type, write } of documents) {
    app.get(path, async (request, reply) => {
      reply
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('link', `<${OPEN_DATA_LICENSE.url}>; rel="license"`);
      return sendWithEtag(request, reply, { body: write(site, await openData.pastPolls()), type });
    });
  }
};
