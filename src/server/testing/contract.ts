/**
 * Route tests against the API document: `injectChecked` is `app.inject` that also checks the
 * answer against what GET /openapi.json says of the call. The status must be one the operation
 * lists (exactly, as `4XX`, or as `default`), a JSON answer must match that response's schema
 * (JSON Schema 2020-12, with Ajv), and any other answer must be of a media type listed for it.
 * A route whose answer drifts from its contract fails the test that called it. Visitor.request
 * goes through here, so every route test that uses a Visitor checks its answers.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface MediaType {
  schema?: Record<string, unknown>;
}
interface Response {
  content?: Record<string, MediaType>;
}
interface Operation {
  responses: Record<string, Response>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const documents = new WeakMap<FastifyInstance, Promise<Checker>>();

class Checker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly paths: { pattern: RegExp; item: Record<string, Operation> }[];

  constructor(readonly document: OpenApiDocument) {
    addFormats.default(this.ajv);
    this.ajv.addSchema({ $id: 'components', components: document.components });
    // Literal segments before parameters: /api/polls/active before /api/polls/{id}.
    this.paths = Object.entries(document.paths)
      .map(([path, item]) => ({
        pattern: new RegExp(
          `^${path
            .split(/(\{[^}]+\})/)
            .map((part) =>
              part.startsWith('{') ? (part === '{path}' ? '.*' : '[^/]+') : part.replace(/[.+?^$()|[\]\\]/g, '\\$&'),
            )
            .join('')}$`,
        ),
        literal: path.replaceAll(/\{[^}]+\}/g, '').length,
        item,
      }))
      .sort((a, b) => b.literal - a.literal);
  }

  operation(method: string, url: string): Operation | undefined {
    const path = new URL(url, 'http://x').pathname.replace(/(?<=.)\/$/, '');
    return this.paths.find(({ pattern, item }) => pattern.test(path) && item[method.toLowerCase()])?.item[
      method.toLowerCase()
    ];
  }

  validate(schema: Record<string, unknown>, value: unknown): string | null {
    const key = JSON.stringify(schema).replaceAll('"#/components/', '"components#/components/');
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(key) as object);
      this.validators.set(key, validate);
    }
    return validate(value) ? null : this.ajv.errorsText(validate.errors, { dataVar: 'answer' });
  }
}

/** The app's document, asked for once per app. */
function checkerOf(app: FastifyInstance): Promise<Checker> {
  let checker = documents.get(app);
  if (!checker) {
    checker = app
      .inject({ method: 'GET', url: '/openapi.json' })
      .then((response) => new Checker(response.json<OpenApiDocument>()));
    documents.set(app, checker);
  }
  return checker;
}

/** What is wrong with `response` as an answer to `method url` under the app's document; null when nothing. */
export async function contractProblem(
  app: FastifyInstance,
  method: string,
  url: string,
  response: LightMyRequestResponse,
): Promise<string | null> {
  const checker = await checkerOf(app);
  // HEAD answers as GET does, without a body.
  if (method === 'HEAD' || method === 'OPTIONS') return null;
  const operation = checker.operation(method, url);
  // No route in the document: a static file (hidden from it), or the app's own 404. That every
  // route is in the document is openapi.test.ts's to prove.
  if (!operation) return null;
  const status = String(response.statusCode);
  const documented =
    operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
  if (!documented) return `${method} ${url} answered ${status}, which the API document does not list`;
  if (!documented.content || response.statusCode === 204 || response.body === '') return null;
  const type =
    String(response.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const media = documented.content[type];
  if (!media) {
    return `${method} ${url} answered ${status} as ${type || 'no content type'}; the API document says ${Object.keys(documented.content).join(', ')}`;
  }
  if (!type.includes('json') || !media.schema) return null;
  const problem = checker.validate(media.schema, response.json());
  return problem && `${method} ${url} answered ${status} unlike the API document: ${problem}`;
}

/** `app.inject` whose answer must keep the API document's contract (the test fails otherwise). */
export async function injectChecked(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  const response = await app.inject(options);
  const url = typeof options.url === 'string' ? options.url : (options.path ?? '/');
  const problem = await contractProblem(app, options.method ?? 'GET', typeof url === 'string' ? url : '/', response);
  if (problem) throw new Error(problem);
  return response;
}
