import type { FormProblem } from '../../lib/form-check.js';
import { toast } from '../ui/toast.js';

/** Toast titles by field, then by zod issue code: the spec names a few problems (section 5) and titles each. */
export type ProblemTitles = Partial<Record<string, Partial<Record<string, string>>>>;

/**
 * Tells what is wrong with a form: under the spec's title where it names the problem, else under
 * `otherwise`, the title the form gives a send the server refused, as it would have refused it.
 */
export function toastProblem(problem: FormProblem, titles: ProblemTitles, otherwise: string): void {
  const title = titles[problem.field]?.[problem.code];
  toast({ title: title ?? otherwise, description: problem.message, variant: title ? 'validation' : 'failure' });
}
