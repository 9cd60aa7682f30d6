/**
 * Validation of everything visitors and staff send, and the shape of every answer, by domain in
 * schemas/: the server runs the request schemas on every request and documents both in the API
 * document (GET /openapi.json); the browser may run them to explain a problem before sending.
 */
import type { z } from './zod.js';
import type { activateRequest, pollDraft } from './schemas/admin.js';
import type { subscribeRequest, suggestionRequest, voteRequest } from './schemas/polls.js';
import type { discountRequest, releaseRequest } from './schemas/review.js';

export { answerOptions, emailAddress } from './schemas/fields.js';
export * from './schemas/polls.js';
export * from './schemas/staff.js';
export * from './schemas/admin.js';
export * from './schemas/review.js';

export type VoteRequest = z.output<typeof voteRequest>;
export type ActivateRequest = z.output<typeof activateRequest>;
export type SubscribeRequest = z.output<typeof subscribeRequest>;
export type SuggestionRequest = z.output<typeof suggestionRequest>;
export type PollDraft = z.output<typeof pollDraft>;
export type DiscountRequest = z.output<typeof discountRequest>;
export type ReleaseRequest = z.output<typeof releaseRequest>;
