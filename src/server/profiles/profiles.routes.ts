/** This browser's profile (GET, PUT /api/me/profile), and forgetting this browser (DELETE /api/me). */
import type { FastifyPluginAsync } from 'fastify';
import type { Profile } from '../../shared/api.js';
import { profileUpdate } from '../../shared/schemas.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { clearVoterId, ensureVoterId, readVoterId } from '../http/voter-cookie.js';
import type { ProfilesService } from './profiles.service.js';

export const profileRoutes: FastifyPluginAsync<{ profiles: ProfilesService }> = async (app, { profiles }) => {
  app.get('/api/me/profile', async (request): Promise<Profile> => profiles.profile(readVoterId(request)));
};

/** The calls that change something: registered under the write limit. */
export const profileChangeRoutes: FastifyPluginAsync<{ profiles: ProfilesService; secureCookies: boolean }> = async (
  app,
  { profiles, secureCookies },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // A visitor may answer before voting: the answers are kept under a new voter id.
  api.put('/api/me/profile', { schema: { body: profileUpdate } }, async (request, reply): Promise<Profile> => {
    const voterId = ensureVoterId(request, reply, secureCookies);
    return profiles.save(voterId, request.body);
  });

  api.delete('/api/me', async (request, reply) => {
    await profiles.forget(readVoterId(request));
    clearVoterId(reply, secureCookies);
    return reply.status(204).send();
  });
};
