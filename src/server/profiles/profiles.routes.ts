/** This browser's profile (GET, PUT /api/me/profile), and forgetting this browser (DELETE /api/me). */
import type { FastifyPluginAsync } from 'fastify';
import type { Profile } from '../../shared/api.js';
import { profileUpdate } from '../../shared/schemas.js';
import { profile } from '../../shared/schemas/poll-answers.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { clearVoterId, ensureVoterId, readVoterId, type VoterIds } from '../voters/voter-cookie.js';
import type { ProfilesService } from './profiles.service.js';

export const profileRoutes: FastifyPluginAsync<{ profiles: ProfilesService; voterIds: VoterIds }> = async (
  app,
  { profiles, voterIds },
) => {
  app.get(
    '/api/me/profile',
    { schema: { summary: 'This browser\'s "about you" answers', response: { 200: profile } } },
    async (request): Promise<Profile> => profiles.profile((await readVoterId(request, voterIds))?.id ?? null),
  );
};

/** The calls that change something: registered under the write limit. */
export const profileChangeRoutes: FastifyPluginAsync<{ profiles: ProfilesService; voterIds: VoterIds }> = async (
  app,
  { profiles, voterIds },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // A visitor may answer before voting: the answers are kept under a new voter id.
  api.put(
    '/api/me/profile',
    {
      schema: {
        summary: "Change this browser's answers (those left out stay)",
        body: profileUpdate,
        response: { 200: profile },
      },
    },
    async (request, reply): Promise<Profile> => {
      const voter = await ensureVoterId(request, reply, voterIds);
      return profiles.save(voter.id, request.body);
    },
  );

  api.delete(
    '/api/me',
    {
      schema: {
        summary: "Forget this browser: its profile and its votes' e-mails",
        produces: { 204: { description: 'Forgotten; the voter cookie is cleared.' } },
      },
    },
    async (request, reply) => {
      await profiles.forget((await readVoterId(request, voterIds))?.id ?? null);
      clearVoterId(reply, voterIds.secureCookies);
      return reply.status(204).send();
    },
  );
};
