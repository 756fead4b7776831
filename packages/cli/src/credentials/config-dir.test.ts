import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir, credentialsPath } from './config-dir.js';

describe('the config directory', () => {
  it('is SVC_CONFIG_DIR first, then $XDG_CONFIG_HOME/svc, then ~/.config/svc', () => {
    expect(configDir({ SVC_CONFIG_DIR: '/tmp/svc-config', XDG_CONFIG_HOME: '/xdg', HOME: '/home/ada' })).toBe('/tmp/svc-config');
    expect(configDir({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/ada' })).toBe(join('/xdg', 'svc'));
    expect(configDir({ HOME: '/home/ada' })).toBe(join('/home/ada', '.config', 'svc'));
    expect(configDir({ SVC_CONFIG_DIR: '', XDG_CONFIG_HOME: '', HOME: '/home/ada' })).toBe(join('/home/ada', '.config', 'svc'));
  });

  it('holds credentials.json', () => {
    expect(credentialsPath({ SVC_CONFIG_DIR: '/c' })).toBe(join('/c', 'credentials.json'));
  });
});
