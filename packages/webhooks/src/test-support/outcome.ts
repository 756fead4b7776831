import { WebhookVerificationError } from '../errors.js';
import type { Outcome } from './scenarios.js';

/** What a call ended with: 'ok', a WebhookVerificationError code, or 'TypeError'. */
export function outcomeOf(error: unknown): Outcome {
  if (error instanceof WebhookVerificationError) return error.code;
  if (error instanceof TypeError) return 'TypeError';
  throw error;
}

export function syncOutcome(run: () => unknown): Outcome {
  try {
    run();
    return 'ok';
  } catch (error) {
    return outcomeOf(error);
  }
}

export async function asyncOutcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    return outcomeOf(error);
  }
}
