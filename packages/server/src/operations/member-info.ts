import { memberNameLimit, ServiceError } from '@svc/protocol';
import type { MemberInfo } from '@svc/protocol/api';
import { invalidEmailMessage, isValidEmail } from '../lib/email-address.js';
import type { MemberListing } from '../store/queries/members.js';
import { isoTime } from '../lib/iso-time.js';
import { emailName } from './rights.js';

/** A member's name as people see it: the one given in that workspace, else the email before `@` (docs/members.md). */
export function memberName(name: string | null, email: string): string {
  return name ?? emailName(email);
}

/** A member as audit entries name them: by id, and by their email (docs/privacy.md). */
export function memberObject(listing: MemberListing): { type: string; id: string; name: string } {
  return { type: 'member', id: listing.member.id, name: listing.person.email };
}

export function toMemberInfo({ member, person, workspaceSlug }: MemberListing): MemberInfo {
  return { id: member.id, email: person.email, name: memberName(member.name, person.email), workspace: workspaceSlug, role: member.role, status: member.status, createdAt: isoTime(member.created_at) };
}

/** An address as stored: trimmed and lowercased, so one person is one row; `validation_failed` if not an address. */
export function normalizeEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (!isValidEmail(email)) throw new ServiceError('validation_failed', `email ${invalidEmailMessage}`, { errors: { email: invalidEmailMessage } });
  return email;
}

/** A name as stored: trimmed, without control characters; empty means none (the email's part is shown). */
export function normalizeName(value: string | undefined): string | null {
  if (value === undefined) return null;
  const name = value.trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ServiceError('validation_failed', 'name must not contain control characters', { errors: { name: 'must not contain control characters' } });
  if (name.length > memberNameLimit) throw new ServiceError('validation_failed', `name must be at most ${memberNameLimit} characters`, { errors: { name: `must be at most ${memberNameLimit} characters` } });
  return name === '' ? null : name;
}
