import { describe, expect, it } from 'vitest';
import { ServiceError } from '@svc/protocol';
import { newId } from '../ids.js';
import { decodeCursor, encodeCursor } from './submission-cursor.js';

const invalid = (run: () => unknown): ServiceError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected invalid_cursor');
};

describe('submission listing cursors', () => {
  it('round-trip a submission id for the same listing, and are opaque base64url', () => {
    const id = newId('sub');
    const cursor = encodeCursor('inbox', id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(id);
    expect(decodeCursor(cursor, 'inbox')).toBe(id);
    expect(decodeCursor(encodeCursor('spam', id), 'spam')).toBe(id);
  });

  it('refuse a cursor of the other listing', () => {
    const error = invalid(() => decodeCursor(encodeCursor('inbox', newId('sub')), 'spam'));
    expect([error.code, error.message]).toEqual(['invalid_cursor', 'the cursor belongs to the inbox listing, not the spam one']);
  });

  it('refuse anything they did not make', () => {
    const forged = [
      'not a cursor',
      '',
      Buffer.from('v2:inbox:sub_06gztftsnm20n7cy0sc5myj7rr').toString('base64url'),
      Buffer.from('v1:inbox:evt_06gztftsnm20n7cy0sc5myj7rr').toString('base64url'),
      Buffer.from('v1:inbox:sub_06gztftsnm20n7cy0sc5myj7rr:extra').toString('base64url'),
      Buffer.from("v1:inbox:sub_' or 1=1 --").toString('base64url'),
      Buffer.from('v1:archive:sub_06gztftsnm20n7cy0sc5myj7rr').toString('base64url'),
    ];
    for (const cursor of forged) expect(invalid(() => decodeCursor(cursor, 'inbox')).code, cursor).toBe('invalid_cursor');
  });
});
