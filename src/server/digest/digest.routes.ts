/**
 * The weekly digest on the web: /week/2026-W48, drawn by the server (no script), the same
 * polls as that week's e-mail; and the owner's setting of when the e-mail leaves on Fridays.
 */
import { digestSettings } from '../../shared/schemas/topic-answers.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import type { FastifyPluginAsync } from 'fastify';
import { digestSettingsRequest, isoWeekParams } from '../../shared/schemas.js';
import type { Clock } from '../clock.js';
import type { Site } from '../config.js';
import { sendPlainPage } from '../pages/plain-page.js';
import type { AdminAuth } from '../staff/admin-auth.service.js';
import { staffApi } from '../staff/admin-guard.js';
import { auditedChanges, staffReads } from '../staff/staff-calls.js';
import type { DigestService } from './digest.service.js';
import { NO_WEEK_PAGE, weekPage } from './week-page.js';

export const digestRoutes: FastifyPluginAsync<{
  digest: DigestService;
  site: Site;
  https: boolean;
}> = async (app, { digest, site, https }) => {
  const plainSite = { siteName: site.siteName, https };
  app.get('/week/:week', async (request, reply) => {
    const params = isoWeekParams.safeParse(request.params);
    const found = params.success ? await digest.week(params.data.week) : undefined;
    return sendPlainPage(reply, { site: plainSite, ...(found ? weekPage(found, site.timeZone) : NO_WEEK_PAGE) });
  });
};

export const digestAdminRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  digest: DigestService;
  site: Site;
  clock: Clock;
}> = async (app, { auth, digest, site, clock }) => {
  const api = staffApi(app, auth, site.publicUrl);

  staffReads(api).get('/api/admin/digest', {
    permission: 'polls.read',
    summary: 'When the weekly digest leaves',
    schema: { response: { 200: digestSettings } },
    read: async () => ({ sendAt: await digest.sendAt(), timeZone: site.timeZone }),
  });

  auditedChanges(api, () => clock.now()).put('/api/admin/digest', {
    permission: 'settings.write',
    summary: 'Set when the weekly digest leaves',
    schema: { body: digestSettingsRequest, response: { 200: confirmation } },
    audit: ({ body: { sendAt } }) => [
      'digest.time',
      `The weekly digest leaves on Fridays at ${sendAt} (${site.timeZone})`,
      'weekly digest',
    ],
    handle: async ({ body: { sendAt } }, audit) => {
      await digest.setSendAt(sendAt, audit);
      return { message: `The weekly digest will go out on Fridays at ${sendAt}.` };
    },
  });
};
