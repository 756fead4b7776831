import { memberNameLimit, ServiceError } from '@svc/protocol';
import type { MemberInfo } from '@svc/protocol/api';
import { invalidEmailMessage, isValidEmail } from '../lib/email-address.js';
import type { MemberListing, PersonRow } from '../store/queries/members.js';
import { isoTime } from '../lib/iso-time.js';

/** The name people see: the one set, else the email before `@` (docs/members.md). */
export function displayName(person: Pick<PersonRow, 'name' | 'email'>): string {
  return person.name ?? person.email.slice(0, person.email.lastIndexOf('@'));
}

export function toMemberInfo({ member, person, workspaceSlug }: MemberListing): MemberInfo {
  return { id: member.id, email: person.email, name: displayName(person), workspace: workspaceSlug, role: member.role, status: member.status, createdAt: isoTime(member.created_at) };
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
