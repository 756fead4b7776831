import { ServiceError } from '@svc/protocol';

const version = 'v1';

/**
 * Cursors of paginated listings are opaque to callers: base64url of
 * `v1:<listing>:<last id>`. A cursor is only good for the listing that gave it out
 * (submissions: `inbox` or `spam`; deliveries: `deliveries`), and only carries an id of
 * the listing's kind.
 */
export interface ListingCursor {
  encode(lastId: string): string;
  /** The id to continue after; `invalid_cursor` for anything this listing did not make. */
  decode(cursor: string): string;
}

/** Every listing name, so a cursor of another listing gets a precise error. */
const listings = ['inbox', 'spam', 'deliveries', 'requests', 'audit'] as const;
export type ListingName = (typeof listings)[number];

export function listingCursor(listing: ListingName, idPattern: RegExp): ListingCursor {
  return {
    encode: (lastId) => Buffer.from(`${version}:${listing}:${lastId}`, 'utf8').toString('base64url'),
    decode: (cursor) => {
      const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
      const [tag, cursorListing, id, ...rest] = text.split(':');
      if (tag !== version || id === undefined || rest.length > 0 || !(listings as readonly string[]).includes(cursorListing ?? '')) {
        throw new ServiceError('invalid_cursor', 'the cursor is not one this listing gave out');
      }
      if (cursorListing !== listing) throw new ServiceError('invalid_cursor', `the cursor belongs to the ${cursorListing} listing, not the ${listing} one`);
      if (!idPattern.test(id)) throw new ServiceError('invalid_cursor', 'the cursor is not one this listing gave out');
      return id;
    },
  };
}

export const submissionCursors = {
  inbox: listingCursor('inbox', /^sub_[0-9a-z]{26}$/),
  spam: listingCursor('spam', /^sub_[0-9a-z]{26}$/),
} as const;

export const deliveryCursor = listingCursor('deliveries', /^dlv_[0-9a-z]{26}$/);

export const requestCursor = listingCursor('requests', /^req_[0-9a-z]{26}$/);

export const auditCursor = listingCursor('audit', /^aud_[0-9a-z]{26}$/);
