/**
 * GET /api: the API reference for people, drawn on the server from the API document (the same
 * one GET /openapi.json serves), in the site's look. Grouped by area; each call with its method,
 * path, summary, parameters, body and answers, the schemas written compactly (`{ id: integer,
 * name?: string }`, shared ones linked to their own section). A GET form (`?q=`) narrows the
 * calls on the server, so search works without JavaScript and each search has its own address.
 */
import { escapeHtml as e } from '../pages/app-html.js';
import type { SitePage } from '../pages/site-page.js';
import { ERROR_CODES } from '../../shared/api.js';
import { LIMITS, RATE_LIMIT_HEADERS } from './limits.js';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Json }> };
  responses: Record<
    string,
    { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: Json }> }
  >;
}

export interface ApiDocument {
  info: { title: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

const REF = '#/components/schemas/';

/** A sentence of the document, escaped, with its `code` as code. */
const prose = (text: string) => e(text).replace(/`([^`]+)`/g, '<code>$1</code>');
const INDENT = '  ';

/** A JSON Schema as a compact type, in HTML: `{ a: string, b?: integer[] }`; shared schemas link to their section. */
export function typeHtml(schema: Json | undefined, depth = 0): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(REF)) {
    const name = ref.slice(REF.length);
    return `<a href="/api#schema-${e(name)}">${e(name)}</a>`;
  }
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(union)) return union.map((part) => typeHtml(part, depth)).join(' | ');
  if (Array.isArray(schema.allOf)) return (schema.allOf as Json[]).map((part) => typeHtml(part, depth)).join(' & ');
  if ('const' in schema) return e(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => e(JSON.stringify(value))).join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.map((one) => typeHtml({ ...schema, type: one }, depth)).join(' | ');
  if (type === 'array') {
    const items = typeHtml(schema.items as Json | undefined, depth);
    return /[ |&]/.test(items.replace(/<[^>]*>/g, '')) && !items.startsWith('{') ? `(${items})[]` : `${items}[]`;
  }
  if (type === 'object' || schema.properties) {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
    const required = new Set((schema.required ?? []) as string[]);
    const open = schema.additionalProperties !== false && properties.length > 0 ? [`${INDENT.repeat(depth + 1)}…`] : [];
    if (properties.length === 0) {
      const values = schema.additionalProperties as Json | undefined;
      return values && typeof values === 'object' ? `{ [key: string]: ${typeHtml(values, depth)} }` : 'object';
    }
    const lines = properties.map(
      ([name, property]) =>
        `${INDENT.repeat(depth + 1)}${e(name)}${required.has(name) ? '' : '?'}: ${typeHtml(property, depth + 1)}${
          typeof property.description === 'string' ? ` <span class="note">// ${prose(property.description)}</span>` : ''
        }`,
    );
    return `{\n${[...lines, ...open].join('\n')}\n${INDENT.repeat(depth)}}`;
  }
  return typeof type === 'string' ? e(type) : 'any';
}

const schemaBlock = (schema: Json | undefined) => `<pre class="schema"><code>${typeHtml(schema)}</code></pre>`;

/** The words of a search, lower-cased; empty for none. */
export const searchWords = (q: string) => q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 10);

/** Whether every word is in the call's method, path, summary, description or area. */
function matches(method: string, path: string, operation: Operation, words: string[]): boolean {
  const text = [method, path, operation.summary, operation.description ?? '', ...operation.tags]
    .join(' ')
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

function parametersHtml(parameters: Parameter[] | undefined): string {
  if (!parameters?.length) return '';
  const rows = parameters.map(
    (p) =>
      `<tr><th scope="row"><code>${e(p.name)}</code></th><td>${e(p.in)}${p.required ? ', required' : ''}</td><td><code>${typeHtml(p.schema)}</code>${p.description ? ` ${prose(p.description)}` : ''}</td></tr>`,
  );
  return `<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function bodyHtml(body: Operation['requestBody']): string {
  if (!body) return '';
  const [type, media] = Object.entries(body.content)[0] ?? [];
  return `<h4>Body <span class="note">(${e(type ?? '')}${body.required ? ', required' : ', optional'})</span></h4>${schemaBlock(media?.schema)}`;
}

function responsesHtml(responses: Operation['responses']): string {
  const items = Object.entries(responses).map(([status, response]) => {
    const content = Object.entries(response.content ?? {});
    const json = content.find(([type]) => type.includes('json'));
    const types = content.map(([type]) => type).join(', ');
    const headers = Object.keys(response.headers ?? {});
    const isError = json?.[1].schema?.$ref === `${REF}ApiError`;
    return `<li><p><strong>${e(status)}</strong> ${prose(response.description)}${types && (!json || content.length > 1) ? ` <span class="note">(${e(types)})</span>` : ''}${
      headers.length
        ? ` <span class="note">Headers: ${headers.map((h) => `<code>${e(h)}</code>`).join(', ')}</span>`
        : ''
    }${isError ? ' <span class="note">as <a href="#errors">ApiError</a></span>' : ''}</p>${json && !isError ? schemaBlock(json[1].schema) : ''}</li>`;
  });
  return `<h4>Answers</h4><ul class="answers">${items.join('')}</ul>`;
}

const METHOD_ORDER = ['get', 'post', 'put', 'delete', 'patch'];

function operationHtml(method: string, path: string, operation: Operation): string {
  const security = operation.security?.length
    ? `<p class="note">Needs ${operation.security.some((s) => 'metricsToken' in s) ? 'the metrics token (<code>Authorization: Bearer</code>)' : 'a staff session (the <code>admin_session</code> cookie)'}.</p>`
    : '';
  const paragraphs = (operation.description ?? '')
    .split('\n\n')
    .filter(Boolean)
    .map((text) => `<p>${prose(text)}</p>`)
    .join('');
  return `<article class="card op" id="${e(operation.operationId)}" aria-labelledby="${e(operation.operationId)}-h">
<h3 id="${e(operation.operationId)}-h"><span class="method method--${e(method)}">${e(method.toUpperCase())}</span> <code class="path">${e(path)}</code></h3>
<p class="summary">${prose(operation.summary)} <a class="anchor" href="#${e(operation.operationId)}" aria-label="Link to ${e(method.toUpperCase())} ${e(path)}">#</a></p>
${paragraphs}${security}${parametersHtml(operation.parameters)}${bodyHtml(operation.requestBody)}${responsesHtml(operation.responses)}
</article>`;
}

export const API_PAGE_CSS = `
main { max-width: 56rem; }
h2 { font-size: 1.25rem; margin: 1.5rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0 0 0.25rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem; }
h4 { font-size: 0.9375rem; margin: 0.75rem 0 0.25rem; }
.op p { margin: 0 0 0.5rem; }
.summary { font-weight: 600; }
.path { font-size: 1rem; overflow-wrap: anywhere; }
.method { display: inline-block; min-width: 4rem; padding: 0 0.5rem; border-radius: 0.375rem; text-align: center;
  font-size: 0.8125rem; font-weight: 800; letter-spacing: 0.04em; background: var(--green-tint); color: var(--green-dark); }
.method--post, .method--put { background: light-dark(#dbeafe, #1e3a8a); color: light-dark(#1e3a8a, #dbeafe); }
.method--delete { background: light-dark(#fee2e2, #7f1d1d); color: light-dark(#7f1d1d, #fee2e2); }
.note { color: var(--muted); font-size: 0.875rem; font-weight: 400; }
.anchor { color: var(--muted); }
pre.schema { margin: 0 0 0.5rem; padding: 0.5rem 0.75rem; border-radius: 0.5rem; background: var(--paper);
  border: 1px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.8125rem; line-height: 1.45; }
table { border-collapse: collapse; width: 100%; font-size: 0.875rem; margin: 0 0 0.5rem; }
th, td { text-align: left; vertical-align: top; padding: 0.25rem 0.5rem 0.25rem 0; border-bottom: 1px solid var(--line);
  overflow-wrap: anywhere; }
ul.answers { list-style: none; margin: 0; padding: 0; }
ul.answers p { margin: 0.25rem 0; }
.toc { columns: 2 14rem; margin: 0; padding-left: 1.25rem; }
form.search { grid-template-columns: 1fr auto; margin: 0 0 1rem; }
form.search .q { grid-column: auto; }
form.search button { grid-column: auto; }
@media (max-width: 30rem) { form.search { grid-template-columns: 1fr; } }
`;

/** The reference page for `q` (empty: every call). */
export function apiPage(document: ApiDocument, q: string): SitePage & { css: string } {
  const words = searchWords(q);
  const found: { tag: string; method: string; path: string; operation: Operation }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHOD_ORDER) {
      const operation = item[method];
      if (operation && matches(method, path, operation, words)) {
        found.push({ tag: operation.tags[0] ?? 'Other', method, path, operation });
      }
    }
  }
  const groups = document.tags
    .map((tag) => ({ ...tag, calls: found.filter((call) => call.tag === tag.name) }))
    .filter((group) => group.calls.length > 0);
  const slug = (name: string) => `area-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const total = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  const searched = words.length > 0;
  const form = `<form class="search" method="get" action="/api" role="search">
<div class="q"><label for="q">Search the calls</label><input id="q" name="q" type="search" value="${e(q)}" maxlength="200" placeholder="vote, subscribe, audit…"></div>
<button type="submit">Search</button>
</form>`;
  const status = searched
    ? `<p class="lead" role="status">${found.length === 0 ? 'No call matches' : `${found.length} of ${total} calls match`} “${e(q)}”. <a href="/api">Show every call</a></p>`
    : '';
  const toc = `<nav aria-label="Areas"><ul class="toc">${groups.map((g) => `<li><a href="#${slug(g.name)}">${e(g.name)}</a> (${g.calls.length})</li>`).join('')}</ul></nav>`;
  const sections = groups
    .map(
      (group) => `<section aria-labelledby="${slug(group.name)}"><h2 id="${slug(group.name)}">${e(group.name)}</h2>
<p class="lead">${prose(group.description)}</p>
${group.calls.map((call) => operationHtml(call.method, call.path, call.operation)).join('\n')}</section>`,
    )
    .join('\n');
  const errors = `<section aria-labelledby="errors"><h2 id="errors">Errors</h2>
<div class="card"><p>Every error is JSON <code>{ message, code }</code>: <code>message</code> a sentence for people (it may change), <code>code</code> stable, for programs. Invalid input also lists <code>issues</code>, each with the field's <code>path</code> and a <code>message</code>.</p>
${schemaBlock(document.components.schemas.ApiError)}
<p>The codes: ${ERROR_CODES.map((code) => `<code>${e(code)}</code>`).join(', ')}.</p></div></section>`;
  const limits = `<section aria-labelledby="limits"><h2 id="limits">Limits</h2>
<div class="card"><p>Limits count per network (an IPv4 address, an IPv6 /64; a /48 gets four times as many). A call past a limit is answered 429 with <code>Retry-After</code> (seconds).</p>
<ul>${Object.entries(LIMITS)
    .map(([name, limit]) => `<li><strong>${e(name)}</strong>: ${prose(limit.description)}</li>`)
    .join('')}</ul>
<p>Every call a limit counts answers with:</p><ul>${Object.entries(RATE_LIMIT_HEADERS)
    .map(([name, header]) => `<li><code>${e(name)}</code>: ${prose(header.description)}</li>`)
    .join('')}</ul></div></section>`;
  const schemas = searched
    ? ''
    : `<section aria-labelledby="schemas"><h2 id="schemas">Shared schemas</h2>
${Object.entries(document.components.schemas)
  .map(
    ([name, schema]) =>
      `<article class="card" id="schema-${e(name)}"><h3>${e(name)}</h3>${typeof schema.description === 'string' ? `<p class="note">${prose(schema.description)}</p>` : ''}${schemaBlock({ ...schema, description: undefined })}</article>`,
  )
  .join('\n')}</section>`;
  const body = `<h1>API reference</h1>
<p class="lead">${prose(document.info.description)} The same as <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1), for programs.</p>
${form}
${status}
${searched ? '' : toc}
${sections}
${errors}
${limits}
${schemas}`;
  return {
    status: 200,
    title: searched ? `API: ${q}` : 'API reference',
    description: 'Every call of the Teacher Hot Take API: what it takes, what it answers, its errors and limits.',
    path: searched ? `/api?q=${encodeURIComponent(q)}` : '/api',
    noindex: searched,
    body,
    css: API_PAGE_CSS,
  };
}
