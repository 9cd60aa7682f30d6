/**
 * The demo's topics (issue 39): which of the seeded topics each demo poll and suggestion is
 * given, by what its question is about. A poll about nothing on the list (pizza) gets none.
 */
const RULES: readonly [RegExp, string][] = [
  [/class size|staff meetings|duty|homework|post grades|group projects|test prep/i, 'workload'],
  [/money|supplies|merit pay|salary|duty/i, 'pay-and-conditions'],
  [/phone|recess|behavior|dress code/i, 'behaviour'],
  [
    /late work|grading|grade level|test prep|cursive|silent reading|group projects|homework|post grades/i,
    'curriculum-and-assessment',
  ],
  [/phone|online|\bai\b|laptop|screen/i, 'technology-and-ai'],
  [/staff meetings|merit pay|district/i, 'leadership'],
  [/recess|start no earlier|four-day|school year end|silent reading/i, 'wellbeing'],
  [/required|require|four-day|start no earlier|school year|bad weather|retained|dress code|banned/i, 'policy'],
];

/** The slugs of the topics a demo question is about, in the list's order, at most three. */
export function demoTopicsOf(question: string): string[] {
  return RULES.filter(([pattern]) => pattern.test(question))
    .map(([, slug]) => slug)
    .filter((slug, i, all) => all.indexOf(slug) === i)
    .slice(0, 3);
}
