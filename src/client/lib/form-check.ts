/**
 * Checking a form before it is sent, with the server's own schemas (src/shared/schemas.ts): the
 * same rules and the same sentences, typed once. The schemas bring zod, about 25 KB gzipped, so
 * they load when a form first shows, not with the page a teacher first opens.
 */
import type { z } from 'zod';
import type * as SharedSchemas from '../../shared/schemas.js';
import { NetworkError } from './api-client.js';

type Schemas = typeof SharedSchemas;

let loading: Promise<Schemas> | undefined;

function loadSchemas(): Promise<Schemas> {
  loading ??= import('../../shared/schemas.js').catch((error: unknown) => {
    loading = undefined; // the next check tries again
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  });
  return loading;
}

/** Starts loading the schemas, for a form that has just appeared; a failure shows when it is sent. */
export function preloadSchemas(): void {
  loadSchemas().catch(() => undefined);
}

/** The first problem with a form's values, worded as the server would word it. */
export interface FormProblem {
  /** The field it is about: the first step of the issue's path. */
  field: string;
  /** zod's issue code: `too_small` for a blank required field or too few options. */
  code: string;
  message: string;
}

export type FormCheck<T> = { ok: true; data: T } | { ok: false; problem: FormProblem };

/**
 * Checks `values` with the schema that `pick` chooses, and gives what the server would take.
 * Rejects with a NetworkError when the schemas cannot be loaded: report it as a failed send.
 */
export async function checkForm<S extends z.ZodType>(
  pick: (schemas: Schemas) => S,
  values: z.input<S>,
): Promise<FormCheck<z.output<S>>> {
  const result = pick(await loadSchemas()).safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  return {
    ok: false,
    problem: {
      field: String(issue?.path[0] ?? ''),
      code: issue?.code ?? 'custom',
      message: issue?.message ?? result.error.message,
    },
  };
}
