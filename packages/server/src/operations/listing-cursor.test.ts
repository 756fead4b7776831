import { describe, expect, it } from 'vitest';
import { ServiceError } from '@svc/protocol';
import { newId } from '../lib/ids.js';
import { deliveryCursor, submissionCursors } from './listing-cursor.js';

const invalid = (run: () => unknown): ServiceError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected invalid_cursor');
};

describe('listing cursors', () => {
  it('round-trip the last id for the same listing, and are opaque base64url', () => {
    const id = newId('sub');
    const cursor = submissionCursors.inbox.encode(id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(id);
    expect(submissionCursors.inbox.decode(cursor)).toBe(id);
    expect(submissionCursors.spam.decode(submissionCursors.spam.encode(id))).toBe(id);
    const delivery = newId('dlv');
    expect(deliveryCursor.decode(deliveryCursor.encode(delivery))).toBe(delivery);
  });

  it('refuse a cursor of another listing, saying which', () => {
    const error = invalid(() => submissionCursors.spam.decode(submissionCursors.inbox.encode(newId('sub'))));
    expect([error.code, error.message]).toEqual(['invalid_cursor', 'the cursor belongs to the inbox listing, not the spam one']);
    const crossed = invalid(() => deliveryCursor.decode(submissionCursors.inbox.encode(newId('sub'))));
    expect([crossed.code, crossed.message]).toEqual(['invalid_cursor', 'the cursor belongs to the inbox listing, not the deliveries one']);
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
    for (const cursor of forged) expect(invalid(() => submissionCursors.inbox.decode(cursor)).code, cursor).toBe('invalid_cursor');
    for (const cursor of [...forged, Buffer.from('v1:deliveries:sub_06gztftsnm20n7cy0sc5myj7rr').toString('base64url')]) {
      expect(invalid(() => deliveryCursor.decode(cursor)).code, cursor).toBe('invalid_cursor');
    }
  });
});
