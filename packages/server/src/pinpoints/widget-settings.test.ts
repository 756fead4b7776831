import { describe, expect, it } from 'vitest';
import { enabledEnvironments, widgetSettings } from './widget-settings.js';

describe('a project\'s pinpoints settings', () => {
  it('default to production off, staging and development on, IPs kept, nothing redacted', () => {
    const settings = widgetSettings('{}');
    expect(settings).toEqual({ production: false, staging: true, development: true, redact: [], storeIp: true });
    expect(enabledEnvironments(settings)).toEqual(['staging', 'development']);
  });

  it('take what service.json says', () => {
    const settings = widgetSettings(JSON.stringify({ production: true, staging: false, redact: ['.iban', ''], storeIp: false }));
    expect(settings).toEqual({ production: true, staging: false, development: true, redact: ['.iban'], storeIp: false });
  });

  it('fall back to the defaults for a damaged document', () => {
    expect(widgetSettings('not json')).toEqual(widgetSettings('{}'));
  });
});
