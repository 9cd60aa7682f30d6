/**
 * Every route the app registers, as the API document needs it: collected by an `onRoute` hook
 * added before any route, read only when the document is first asked for (by then a scope's own
 * hook, such as the write limit's, has said what it adds to a route).
 */
import type { RouteOptions } from 'fastify';
import type { RouteEntry } from './route-docs.js';

export class RouteCatalog {
  private readonly routes: RouteOptions[] = [];

  readonly collect = (route: RouteOptions) => {
    this.routes.push(route);
  };

  entries(): RouteEntry[] {
    return (
      this.routes
        // Static files (@fastify/static hides its routes): the built app's assets, not the API.
        .filter((route) => !(route.schema as { hide?: boolean } | undefined)?.hide)
        .flatMap((route) =>
          [route.method]
            .flat()
            // Fastify adds a HEAD beside every GET.
            .filter((method) => method !== 'HEAD')
            .map((method) => ({
              method,
              url: route.url,
              schema: route.schema,
              permission: route.config?.permission,
              recentSignIn: route.config?.recentSignIn,
              limits: route.config?.limits ?? [],
            })),
        )
    );
  }
}
