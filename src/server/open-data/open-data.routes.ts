/**
 * The open data: GET /data/polls.json, /data/polls.csv and /feed.xml, each built once per change
 * of the past polls (open-data.service.ts) and sent compressed for clients that take it, with
 * an ETag (304 when unchanged), readable from any origin (it is public and licensed for reuse),
 * and a Link header naming the licence. GET /data/weighting.json, the weighted line's targets
 * and rules, changes only with a release: built once at start, sent the same way.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { OPEN_DATA_LICENSE, WEIGHTING_DATA_PATH } from '../../shared/open-data.js';
import { BuiltDocument, sendBuilt } from '../http/built-document.js';
import { weightingOpenData } from '../weighting/targets.js';
import { OPEN_DATA_DOCUMENTS, type OpenDataPath, type OpenDataService } from './open-data.service.js';

export const openDataRoutes: FastifyPluginAsync<{ openData: OpenDataService }> = async (app, { openData }) => {
  const openToAll = (reply: FastifyReply) =>
    reply
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('link', `<${OPEN_DATA_LICENSE.url}>; rel="license"`);
  for (const path of Object.keys(OPEN_DATA_DOCUMENTS) as OpenDataPath[]) {
    app.get(path, async (request, reply) => {
      openToAll(reply);
      return sendBuilt(request, reply, await openData.document(path));
    });
  }
  const weighting = new BuiltDocument(JSON.stringify(weightingOpenData()), 'application/json; charset=utf-8');
  app.get(WEIGHTING_DATA_PATH, async (request, reply) => {
    openToAll(reply);
    return sendBuilt(request, reply, weighting);
  });
};
