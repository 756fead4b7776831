import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Io } from '../io.js';

/**
 * Where `svc login` keeps credentials: `$SVC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/svc`, else
 * `~/.config/svc` (`%APPDATA%\svc` on Windows).
 */
export function configDir(env: Io['env']): string {
  const explicit = env['SVC_CONFIG_DIR'];
  if (explicit !== undefined && explicit !== '') return explicit;
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && xdg !== '') return join(xdg, 'svc');
  const appData = env['APPDATA'];
  if (process.platform === 'win32' && appData !== undefined && appData !== '') return join(appData, 'svc');
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  return join(home, '.config', 'svc');
}

export function credentialsPath(env: Io['env']): string {
  return join(configDir(env), 'credentials.json');
}
