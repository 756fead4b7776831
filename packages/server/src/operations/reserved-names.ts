import { ServiceError } from '@svc/protocol';

/**
 * The path segments the settings area uses under `/settings/` (docs/settings.md): a
 * workspace or a project of such a name would be shadowed by a page (`/settings/tokens`,
 * `/settings/{workspace}/members`), so none may take one. A unit test keeps the list in step
 * with the settings area's routes.
 */
export const settingsPageNames: readonly string[] = ['account', 'assets', 'audit', 'members', 'tokens'];

/** `validation_failed` when a new workspace or project would take the name of a settings page. */
export function refuseSettingsPageName(field: 'workspace' | 'project', name: string): void {
  if (!settingsPageNames.includes(name)) return;
  const message = `"${name}" is the name of a page of the settings area (/settings/…); choose another ${field} name`;
  throw new ServiceError('validation_failed', `${field} ${message}`, { errors: { [field]: message } });
}
