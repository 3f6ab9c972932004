/**
 * A failure in the chosen language: a refusal whose kind (its `error` field)
 * this client words, else the server's own English message. Apart from
 * index.ts, which the API's own modules use, so the two do not import each
 * other.
 */
import { ApiError } from '../api.js';
import { words } from './index.js';

export function failureWords(error: unknown): string {
  if (error instanceof ApiError) return Object.hasOwn(words().refusals, error.kind) ? words().refusals[error.kind] : error.message;
  return error instanceof Error ? error.message : String(error);
}
