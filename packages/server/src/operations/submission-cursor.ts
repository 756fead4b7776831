import { ServiceError } from '@svc/protocol';
import type { SubmissionState } from '@svc/protocol/api';

const version = 'v1';
const idPattern = /^sub_[0-9a-z]{26}$/;

/**
 * Cursors of submission listings are opaque to callers: base64url of
 * `v1:<state>:<last submission id>`. A cursor is only good for a listing of the same state.
 */
export function encodeCursor(state: SubmissionState, lastId: string): string {
  return Buffer.from(`${version}:${state}:${lastId}`, 'utf8').toString('base64url');
}

/** The submission id to continue after; `invalid_cursor` for anything this code did not make. */
export function decodeCursor(cursor: string, state: SubmissionState): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const [tag, cursorState, id, ...rest] = text.split(':');
  if (tag !== version || id === undefined || !idPattern.test(id) || rest.length > 0 || (cursorState !== 'inbox' && cursorState !== 'spam')) {
    throw new ServiceError('invalid_cursor', 'the cursor is not one this listing gave out');
  }
  if (cursorState !== state) {
    throw new ServiceError('invalid_cursor', `the cursor belongs to the ${cursorState} listing, not the ${state} one`);
  }
  return id;
}
