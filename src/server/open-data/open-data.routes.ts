/**
 * The open data: GET /data/polls.json, /data/polls.csv and /feed.xml, each built once per change
 * of the past polls (open-data.service.ts) and sent compressed for clients that take it, with
 * an ETag (304 when unchanged), readable from any origin (it is public and licensed for reuse),
 * and a Link header naming the licence.
 */
import type { FastifyPluginAsync } from 'fastify';
import { OPEN_DATA_LICENSE } from '../../shared/open-data.js';
import { sendBuilt } from '../http/built-document.js';
import { OPEN_DATA_DOCUMENTS, type OpenDataPath, type OpenDataService } from './open-data.service.js';

export const openDataRoutes: FastifyPluginAsync<{ openData: OpenDataService }> = async (app, { openData }) => {
  for (const path of Object.keys(OPEN_DATA_DOCUMENTS) as OpenDataPath[]) {
    app.get(path, async (request, reply) => {
      reply
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('link', `<${OPEN_DATA_LICENSE.url}>; rel="license"`);
      return sendBuilt(request, reply, await openData.document(path));
    });
  }
};
