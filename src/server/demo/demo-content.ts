/** Demo data for `npm run demo`: sample polls and suggestions to seed a local database. */
import type { Profile, ProfileDimension } from '../../shared/profile.js';

/** How a group of voters leans away from everyone else on a poll: its own weights. */
export interface DemoLean<D extends ProfileDimension = ProfileDimension> {
  dimension: D;
  group: NonNullable<Profile[D]>;
  weights: number[];
}

export interface DemoPoll {
  question: string;
  description: string | null;
  options: string[];
  /**
   * Relative popularity of each option (same length as options), e.g. [52, 31, 17];
   * used to spread demo votes realistically.
   */
  weights: number[];
  /** How many votes the poll gets in the demo, between 40 and 900. */
  votes: number;
  /** Groups that vote differently from the rest, so the breakdowns have something to show. */
  leans?: DemoLean[];
  /** The staff note, "What we learned" (Markdown). */
  note?: string;
}

/** How often demo voters give each answer of the profile (relative weights, in the order of the choices asked now). */
export const profileWeights: { [D in ProfileDimension]: number[] } = {
  role: [70, 10, 12, 8],
  gradeBand: [8, 32, 22, 26, 4, 8],
  region: [18, 22, 36, 20, 4],
  experience: [16, 26, 18, 40],
};

/** Share of demo voters who answer the profile at all, and of those, who answer each question. */
export const PROFILE_TAKE_UP = 0.7;
export const ANSWER_RATE = 0.9;

/** An earlier run of a question asked again: how long ago, how voters leaned, how many voted. */
export interface EarlierRun {
  daysAgo: number;
  weights: number[];
  votes: number;
}

/**
 * Today's question was asked four times before (over the past year), with the same options: a
 * series of five runs, the demo's first tracker.
 */
export const activePollEarlierRuns: EarlierRun[] = [
  { daysAgo: 364, weights: [24, 38, 22, 16], votes: 318 },
  { daysAgo: 245, weights: [29, 37, 21, 13], votes: 341 },
  { daysAgo: 182, weights: [33, 35, 20, 12], votes: 377 },
  { daysAgo: 63, weights: [47, 31, 15, 7], votes: 455 },
];

/** Yesterday's question (pastPolls[0]) was asked three times before: the demo's second tracker. */
export const latestPastPollEarlierRuns: EarlierRun[] = [
  { daysAgo: 390, weights: [51, 49], votes: 402 },
  { daysAgo: 270, weights: [47, 53], votes: 366 },
  { daysAgo: 150, weights: [44, 56], votes: 529 },
];

export interface DemoSuggestion {
  question: string;
  options: string[];
  suggestedBy: string | null;
  email: string | null;
  status: 'pending' | 'approved' | 'rejected';
}

/** Today's poll. */
export const activePoll: DemoPoll = {
  question: 'Should students be required to keep phones locked away for the entire school day?',
  description:
    'A growing number of districts now require phones to stay in pouches or lockers from first bell ' +
    'to dismissal, rather than only during class time.',
  options: ['Yes, bell to bell', 'Only during class time', 'Leave it to each teacher', 'No restrictions needed'],
  weights: [58, 27, 11, 4],
  votes: 412,
  leans: [
    { dimension: 'gradeBand', group: 'high', weights: [71, 21, 6, 2] },
    { dimension: 'gradeBand', group: 'elementary', weights: [39, 30, 23, 8] },
  ],
};

/** Twelve past polls, newest first (index 0 ran yesterday). */
export const pastPolls: DemoPoll[] = [
  {
    question: 'Should late work be accepted for full credit?',
    note: 'Most of you draw a line at *full* credit, not at late work itself. Several wrote in that a short, fixed grace period works better than a blanket rule. Our [archive](/?view=archive) has the homework poll from the same week.',
    description: null,
    options: ['Yes', 'No'],
    weights: [38, 62],
    votes: 687,
  },
  {
    question: 'How much homework should a typical elementary student get each night?',
    note: 'Elementary teachers were **far more likely** than high school teachers to say "none". Compare the [National PTA guidance](https://www.pta.org/) on 10 minutes per grade.',
    description: 'Guidance varies widely, and some schools have dropped nightly homework altogether.',
    options: [
      'None at all',
      'Reading only',
      'Up to 10 minutes per grade level',
      'About 30 minutes regardless of grade',
      'Whatever the teacher decides',
    ],
    weights: [18, 34, 29, 6, 13],
    votes: 534,
  },
  {
    question: 'Would you support your district moving to a four-day school week?',
    note: 'Rural teachers were the most in favour, which matches where four-day weeks have spread. Pay and childcare came up again and again in the comments we received.',
    description:
      'Several rural districts have adopted four-day weeks, often citing budget savings ' + 'and teacher recruitment.',
    options: [
      'Yes, with longer days',
      'Yes, but only with a fifth-day enrichment option',
      'No, it hurts students who need the time',
      'Not sure yet',
    ],
    weights: [41, 22, 26, 11],
    votes: 798,
    leans: [
      { dimension: 'region', group: 'midwest', weights: [55, 24, 14, 7] },
      { dimension: 'region', group: 'west', weights: [50, 23, 18, 9] },
      { dimension: 'region', group: 'northeast', weights: [22, 18, 47, 13] },
    ],
  },
  {
    question:
      'If your school let students use AI writing tools on assignments, which approach would you want ' +
      'as the default policy, knowing it would apply to every subject and grade level in the building ' +
      'unless a teacher opted out?',
    description: 'Schools are drafting AI policies quickly, and many leave the details to individual classrooms.',
    options: [
      'Ban it outright',
      'Allow it for brainstorming only',
      'Allow it with required disclosure',
      'Allow it freely and redesign assessments',
      'Let each department set its own rules',
      'No schoolwide default at all',
    ],
    weights: [14, 24, 31, 9, 15, 7],
    votes: 463,
  },
  {
    question: 'Should middle and high schools start no earlier than 8:30 a.m.?',
    note: 'Later starts had the most support, and it held among school leaders too.\n\nBus schedules were the main worry of those against.',
    description:
      'Sleep researchers recommend later start times for adolescents, but later starts can affect ' +
      'bus routes, athletics and after-school jobs.',
    options: ['Yes', 'No', 'Only for high schools'],
    weights: [49, 30, 21],
    votes: 356,
  },
  {
    question: 'How much of your own money did you spend on classroom supplies last school year?',
    note: 'Almost everyone spent *something*; newer teachers spent the most. The federal educator expense deduction covers [up to $300](https://www.irs.gov/taxtopics/tc458).',
    description: null,
    options: ['Nothing', 'Under $100', '$100 to $499', '$500 to $999', '$1,000 or more'],
    weights: [4, 14, 43, 27, 12],
    votes: 871,
  },
  {
    question: 'Is standards-based grading better than traditional letter grades?',
    note: 'Split down the middle, with elementary teachers far keener than high school ones.',
    description:
      'Standards-based grading reports mastery of specific skills instead of averaging ' + 'points across assignments.',
    options: [
      'Yes, clearly better',
      'Better in theory, hard in practice',
      'About the same',
      'No, letter grades work fine',
    ],
    weights: [21, 39, 9, 31],
    votes: 302,
  },
  {
    question: 'Should recess ever be taken away as a consequence for behavior?',
    description: null,
    options: ['Never', 'Only part of recess, rarely', 'Yes, it is an effective consequence'],
    weights: [55, 33, 12],
    votes: 489,
  },
  {
    question: 'Should cursive handwriting still be taught in elementary school?',
    description: 'Some states have recently added cursive back into their required standards.',
    options: ['Yes', 'No'],
    weights: [64, 36],
    votes: 745,
  },
  {
    question: 'When schools close for bad weather, what should replace the day?',
    description: null,
    options: [
      'A traditional snow day',
      'A remote learning day',
      'A makeup day added in June',
      'Depends on the grade level',
    ],
    weights: [47, 19, 13, 21],
    votes: 618,
  },
  {
    question: 'Would you accept merit pay tied to student outcomes if it raised your total salary?',
    description: 'Merit pay proposals usually link part of a salary to test scores, evaluations or other measures.',
    options: ['Yes', 'Only if not based on test scores', 'No', 'Not sure'],
    weights: [12, 26, 54, 8],
    votes: 533,
    leans: [
      { dimension: 'role', group: 'school-leader', weights: [41, 35, 17, 7] },
      { dimension: 'experience', group: '1-3', weights: [30, 31, 28, 11] },
      { dimension: 'experience', group: '15-plus', weights: [5, 18, 71, 6] },
    ],
  },
  {
    question: 'What is the largest class size you can teach effectively?',
    description: null,
    options: ['18 or fewer', '19 to 22', '23 to 26', '27 to 30', 'More than 30', 'It depends entirely on the students'],
    weights: [17, 33, 24, 8, 2, 16],
    votes: 392,
    leans: [
      { dimension: 'gradeBand', group: 'high', weights: [6, 20, 33, 24, 7, 10] },
      { dimension: 'gradeBand', group: 'early-years', weights: [52, 28, 6, 1, 0, 13] },
    ],
  },
];

/** Three scheduled polls, soonest first. */
export const scheduledPolls: DemoPoll[] = [
  {
    question: 'Should students who are far below grade level be retained for another year?',
    description:
      'Retention policies, especially for third-grade reading, remain contested among ' + 'researchers and educators.',
    options: ['Yes, in most cases', 'Only in early grades', 'Rarely, with strong supports instead', 'Never'],
    weights: [16, 23, 48, 13],
    votes: 274,
  },
  {
    question: 'How much class time should go to test prep in the weeks before state exams?',
    description: null,
    options: ['None', 'A few lessons', 'About a week', 'Two weeks or more'],
    weights: [19, 46, 24, 11],
    votes: 161,
  },
  {
    question: 'Should schools have a student dress code beyond basic safety rules?',
    description: 'Many schools have simplified dress codes in recent years to reduce class time lost to enforcement.',
    options: ['Yes', 'No', 'Only for special events'],
    weights: [44, 41, 15],
    votes: 58,
  },
];

/** Four pending, two approved, two rejected suggestions. */
export const suggestions: DemoSuggestion[] = [
  {
    question: 'Should teachers be required to post grades online within a set number of days?',
    options: ['Yes, within a week', 'Yes, within two weeks', 'No set deadline'],
    suggestedBy: 'Ms. Rivera, 4th grade',
    email: 'rivera.teacher@example.org',
    status: 'pending',
  },
  {
    question: 'Should schools offer a full period of silent reading every day?',
    options: ['Yes', 'No', 'A few times a week'],
    suggestedBy: 'Mr. Okafor, middle school ELA',
    email: null,
    status: 'pending',
  },
  {
    question: 'Do you assign group projects that are completed mostly outside of class?',
    options: ['Often', 'Sometimes', 'Never'],
    suggestedBy: null,
    email: null,
    status: 'pending',
  },
  {
    question: 'Should staff meetings that could be an email be replaced with an email?',
    options: ['Yes', 'No', 'Depends on the meeting'],
    suggestedBy: 'Mrs. Lindqvist, high school chemistry',
    email: 'lindqvist@example.net',
    status: 'pending',
  },
  {
    question: 'Should teachers be allowed to opt out of lunch or bus duty in exchange for other duties?',
    options: ['Yes', 'No', 'Only with administrator approval'],
    suggestedBy: 'Coach Delgado, PE',
    email: 'delgado.pe@example.com',
    status: 'approved',
  },
  {
    question: 'Should the school year end before Memorial Day?',
    options: ['Yes', 'No'],
    suggestedBy: 'Ms. Tanaka, 2nd grade',
    email: 'tanaka@example.org',
    status: 'approved',
  },
  {
    question: 'What is the best pizza topping?',
    options: ['Pepperoni', 'Mushroom', 'Pineapple', 'Plain cheese'],
    suggestedBy: null,
    email: 'pizzafan@example.com',
    status: 'rejected',
  },
  {
    question: 'Should phones be banned in schools?',
    options: ['Yes', 'No'],
    suggestedBy: 'Mr. Brennan, 8th grade science',
    email: null,
    status: 'rejected',
  },
];
