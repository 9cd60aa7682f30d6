import type { FastifyPluginAsync } from 'fastify';
import type { AdminSession, Confirmation } from '../../shared/api.js';
import { signInRequest } from '../../shared/schemas.js';
import { readCookie, setCookie } from '../http/cookies.js';
import { tooManyRequests, unauthorized } from '../http/errors.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { ADMIN_COOKIE, sameSiteOnly } from './admin-guard.js';
import type { AdminAuth } from './admin-auth.service.js';

export const adminAuthRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  publicUrl: string;
  secureCookies: boolean;
}> = async (app, { auth, publicUrl, secureCookies }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', sameSiteOnly(publicUrl));

  api.post('/api/admin/login', { schema: { body: signInRequest } }, async (request, reply): Promise<AdminSession> => {
    const result = await auth.signIn(request.body.password, request.ip);
    if (result.outcome === 'throttled') {
      const minutes = result.retryAfterMinutes === 1 ? '1 minute' : `${result.retryAfterMinutes} minutes`;
      reply.header('retry-after', String(result.retryAfterMinutes * 60));
      throw tooManyRequests(`Too many failed sign-in attempts. Please try again in ${minutes}.`);
    }
    if (result.outcome === 'wrong-password') throw unauthorized('Incorrect password');
    setCookie(reply, ADMIN_COOKIE, result.token, {
      maxAgeSeconds: result.maxAgeSeconds,
      sameSite: 'Strict',
      secure: secureCookies,
    });
    return { authenticated: true };
  });

  api.post('/api/admin/logout', async (request, reply): Promise<Confirmation> => {
    await auth.signOut(readCookie(request, ADMIN_COOKIE));
    setCookie(reply, ADMIN_COOKIE, '', { maxAgeSeconds: 0, sameSite: 'Strict', secure: secureCookies });
    return { message: 'Logged out' };
  });

  api.get('/api/admin/session', async (request): Promise<AdminSession> => ({
    authenticated: await auth.isSignedIn(readCookie(request, ADMIN_COOKIE)),
  }));
};
