/**
 * The browser checks its forms with these schemas and titles a toast by the first issue's field
 * and code, showing its message: the spec's sentences (section 5) must come out exactly, with
 * the codes the forms expect.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { pollDraft, subscribeRequest, suggestionRequest } from './schemas.js';
import { AUDIT_HOSTILE_ADDRESSES } from './testing/hostile-addresses.js';

const suggestion = { question: 'Are snow days outdated?', options: ['Yes', 'No'], suggestedBy: '', email: '' };
const poll = { question: 'Should recess be longer?', description: '', options: ['Yes', 'No'], liveDate: '2026-11-21' };

function firstIssue<S extends z.ZodType>(schema: S, values: z.input<S>) {
  const issue = schema.safeParse(values).error?.issues[0];
  return issue && [issue.path[0], issue.code, issue.message];
}

describe('the first problem a form is told about', () => {
  it.each([
    [
      'a suggestion without a question',
      firstIssue(suggestionRequest, { ...suggestion, question: '  ', options: ['', ''] }),
      ['question', 'too_small', 'Please enter a poll question.'],
    ],
    [
      'a suggestion with one option',
      firstIssue(suggestionRequest, { ...suggestion, options: ['Yes', ' ', ''] }),
      ['options', 'too_small', 'Please provide at least 2 poll options.'],
    ],
    [
      'a suggestion with an option twice',
      firstIssue(suggestionRequest, { ...suggestion, options: ['Yes', ' yes'] }),
      ['options', 'custom', 'The option "yes" is listed twice.'],
    ],
    [
      'a poll without a question',
      firstIssue(pollDraft, { ...poll, question: '' }),
      ['question', 'too_small', 'Please fill in the question.'],
    ],
    [
      'a poll with one option',
      firstIssue(pollDraft, { ...poll, options: ['Yes', '', ''] }),
      ['options', 'too_small', 'Please provide at least 2 poll options.'],
    ],
    [
      'a subscription without an address',
      firstIssue(subscribeRequest, { email: '  ', pollId: 1 }),
      ['email', 'too_small', 'Please enter your email address to subscribe.'],
    ],
    [
      'a subscription with a malformed address',
      firstIssue(subscribeRequest, { email: 'pat@example', pollId: 1 }),
      ['email', 'invalid_format', 'Please enter a valid email address.'],
    ],
  ])('%s', (_case, issue, expected) => {
    expect(issue).toEqual(expected);
  });
});

describe('what a form sends', () => {
  it('leaves out a blank name and an empty e-mail from a suggestion', () => {
    expect(suggestionRequest.parse({ ...suggestion, suggestedBy: '  ' })).toEqual({
      question: suggestion.question,
      options: ['Yes', 'No'],
    });
  });

  it('refuses, as the browser form does before sending, every address a mailer could read as a list or a name', () => {
    // The audit's addresses (issue 10): each was stored as a new subscriber and mailed.
    for (const email of AUDIT_HOSTILE_ADDRESSES) {
      const [field, , message] = firstIssue(subscribeRequest, { email, pollId: 1 }) ?? [];
      expect(field, email).toBe('email');
      expect(message, email).toMatch(/^(Please enter a valid email address\.|.* invisible control character\. .*)$/);
    }
    expect(subscribeRequest.safeParse({ email: "o'brien+news@school-district.k12.example", pollId: 1 }).success).toBe(
      true,
    );
  });

  it('trims and lowercases the address to subscribe', () => {
    expect(subscribeRequest.parse({ email: ' Pat@Example.org ', pollId: 1 })).toEqual({
      email: 'pat@example.org',
      pollId: 1,
      frequency: 'daily',
    });
  });
});
