/**
 * The API document (OpenAPI 3.1) made from the routes as registered: each route's zod schemas
 * become JSON Schema (draft 2020-12, OpenAPI 3.1's own dialect) through zod's `z.toJSONSchema`.
 * Request parts are described as sent (zod's input), answers as written (its output); answer
 * schemas with a `.meta({ id })` become shared components. Nothing here reads configuration,
 * so the committed openapi.json is the one every site serves.
 */
import { z } from '../../shared/zod.js';
import type { FastifySchema } from 'fastify';
import { ERROR_CODES } from '../../shared/api.js';
import { LIMITS, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from './limits.js';
import type { RouteEntry } from './route-docs.js';

type Json = Record<string, unknown>;

export const OPENAPI_INFO = {
  title: 'Teacher Hot Take API',
  version: '1.0.0',
  description:
    'One education poll a day. Every error is JSON `{ message, code }` (ApiError): the message a sentence for people, the code stable for programs. Calls that write answer RateLimit and RateLimit-Policy headers, and 429 with Retry-After past a limit.',
  license: { name: 'Results: CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
} as const;

const apiError = z
  .object({
    message: z.string().meta({ description: 'A sentence for people; may change.' }),
    code: z.enum(ERROR_CODES).meta({ description: 'Which rule refused; stable, for programs.' }),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'For invalid input: which field was wrong and why.' }),
  })
  .meta({ id: 'ApiError', description: 'Every error response.' });

/** One schema as JSON Schema; its named parts go to `components`, referenced from there. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', components: Record<string, Json>): Json {
  const { $defs, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json & {
    $defs?: Record<string, Json>;
  };
  delete rest.$schema;
  for (const [id, def] of Object.entries($defs ?? {})) components[id] = relinked(def);
  return relinked(rest);
}

/** `#/$defs/X` (zod's) as `#/components/schemas/X` (OpenAPI's). */
const relinked = (schema: Json): Json =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** `/a/:id/b` as `/a/{id}/b`; Fastify's `*` as `{path}`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/\*$/, '{path}');

function parameters(schema: FastifySchema | undefined, url: string, components: Record<string, Json>) {
  const list: Json[] = [];
  for (const [part, where] of [
    ['params', 'path'],
    ['querystring', 'query'],
  ] as const) {
    const zod = schema?.[part];
    if (!isZod(zod)) continue;
    const json = jsonSchemaOf(zod, 'input', components) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      list.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  // A path parameter without a schema (a file name, a wildcard) is a plain string.
  for (const name of openApiPath(url).match(/(?<=\{)[^}]+(?=\})/g) ?? []) {
    if (!list.some((p) => p.in === 'path' && p.name === name)) {
      list.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  return list;
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  303: 'See other',
  '4XX': 'Refused: bad input, not signed in, not allowed, not found, a conflict or a limit (`code` says which).',
  '5XX': 'The site cannot answer now, or a fault on the server.',
};

function responses(route: RouteEntry, components: Record<string, Json>) {
  const out: Record<string, Json> = {};
  const limited = route.limits.length > 0;
  const headers = limited ? { headers: RATE_LIMIT_HEADERS } : {};
  for (const [status, zod] of Object.entries(route.schema?.response ?? {})) {
    if (!isZod(zod)) continue;
    const json = jsonSchemaOf(zod, 'output', components);
    out[status] = {
      description: zod.description ?? STATUS_TEXT[status] ?? 'Answer',
      ...headers,
      content: { 'application/json': { schema: json } },
    };
  }
  for (const [status, { type, description }] of Object.entries(route.schema?.produces ?? {})) {
    const schema = { type: type?.includes('json') ? 'object' : 'string' };
    out[status] = { description, ...headers, ...(type ? { content: { [type]: { schema } } } : {}) };
  }
  if (Object.keys(out).length === 0) out.default = { description: 'The answer (not yet described by a schema).' };
  const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } };
  if (limited) {
    out['429'] = {
      description: `Too many requests. ${route.limits.map((name) => LIMITS[name].description).join(' ')}`,
      headers: { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
      ...error,
    };
  }
  // A page or a file refused is a page for people (an HTML 404, or 503 while drawing is
  // saturated), as well as ApiError for programs.
  const page = ['Pages', 'Beyond the site'].includes(tagOf(route))
    ? { 'text/html': { schema: { type: 'string' } } }
    : {};
  out['4XX'] = { description: STATUS_TEXT['4XX'], content: { ...error.content, ...page } };
  out['5XX'] = { description: STATUS_TEXT['5XX'], content: { ...error.content, ...page } };
  return out;
}

function tagOf(route: RouteEntry): string {
  if (route.permission || route.url.startsWith('/api/admin/')) return 'Staff';
  if (route.url.startsWith('/api/')) return 'Public API';
  if (/^\/(healthz|readyz|metrics|openapi\.json)$/.test(route.url)) return 'Operations';
  if (/^\/(data|feed|oembed|embed|qr|og|reminder|manifest|poll-:number\/print)/.test(route.url))
    return 'Beyond the site';
  return 'Pages';
}

function security(route: RouteEntry) {
  if (route.url === '/metrics') return { security: [{ metricsToken: [] }] };
  if (route.permission) return { security: [{ staffSession: [] }] };
  return {};
}

function operation(route: RouteEntry, components: Record<string, Json>): Json {
  const { schema } = route;
  const notes = [
    schema?.description,
    route.permission ? `Staff: needs the permission \`${route.permission}\` (src/shared/staff-permissions.ts).` : '',
    route.recentSignIn ? `${route.recentSignIn} a sign-in within the last 10 minutes (403 \`sign-in-again\`).` : '',
    ...route.limits.map((name) => `Limited: ${LIMITS[name].description}`),
  ].filter(Boolean);
  const params = parameters(schema, route.url, components);
  const requestSchema = schema?.body;
  const body = isZod(requestSchema)
    ? {
        requestBody: {
          required: !requestSchema.safeParse(undefined).success,
          content: { 'application/json': { schema: jsonSchemaOf(requestSchema, 'input', components) } },
        },
      }
    : {};
  return {
    operationId: `${route.method.toLowerCase()}${route.url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ?? '').toUpperCase())}`,
    summary: schema?.summary ?? `${route.method} ${route.url}`,
    ...(notes.length ? { description: notes.join('\n\n') } : {}),
    tags: [tagOf(route)],
    ...security(route),
    ...(params.length ? { parameters: params } : {}),
    ...body,
    responses: responses(route, components),
    ...(route.limits.length ? { 'x-rate-limits': route.limits } : {}),
  };
}

/** The whole document, paths in the order of their registration. */
export function openApiDocument(routes: readonly RouteEntry[]): Json {
  const components: Record<string, Json> = {};
  jsonSchemaOf(apiError, 'output', components);
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const item = (paths[openApiPath(route.url)] ??= {});
    item[route.method.toLowerCase()] = operation(route, components);
  }
  return {
    openapi: '3.1.1',
    info: OPENAPI_INFO,
    tags: [
      {
        name: 'Public API',
        description: "Today's poll, voting, results, subscriptions, suggestions and this browser's settings.",
      },
      { name: 'Staff', description: 'The admin panel, behind a staff session.' },
      { name: 'Beyond the site', description: 'Open data, embeds, previews, the printable sheet and the calendar.' },
      { name: 'Pages', description: 'Pages drawn on the server for people.' },
      { name: 'Operations', description: 'Health, readiness, metrics and this document.' },
    ],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        staffSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'admin_session',
          description:
            'The staff session cookie set by POST /api/admin/login (named `__Host-admin_session` on https). Calls that change something must also come from the site itself (Origin).',
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics.' },
      },
    },
  };
}
