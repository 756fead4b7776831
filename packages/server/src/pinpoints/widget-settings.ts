/** A project's `pinpoints` section with the specification's defaults applied. */
export interface WidgetSettings {
  readonly production: boolean;
  readonly staging: boolean;
  readonly development: boolean;
  readonly redact: readonly string[];
  readonly storeIp: boolean;
}

export type PinpointsEnvironment = 'production' | 'staging' | 'development';
export const pinpointsEnvironments: readonly PinpointsEnvironment[] = ['production', 'staging', 'development'];

export function isPinpointsEnvironment(value: unknown): value is PinpointsEnvironment {
  return typeof value === 'string' && (pinpointsEnvironments as readonly string[]).includes(value);
}

/** Reads the stored JSON of `projects.pinpoints`: production off, staging and development on, IPs kept. */
export function widgetSettings(stored: string): WidgetSettings {
  const section = parseObject(stored);
  const flag = (name: string, fallback: boolean) => (typeof section[name] === 'boolean' ? (section[name]) : fallback);
  const redact = Array.isArray(section['redact']) ? section['redact'].filter((item): item is string => typeof item === 'string' && item.length > 0) : [];
  return { production: flag('production', false), staging: flag('staging', true), development: flag('development', true), redact, storeIp: flag('storeIp', true) };
}

/** The environments where the widget shows, in the specification's order. */
export function enabledEnvironments(settings: WidgetSettings): PinpointsEnvironment[] {
  return pinpointsEnvironments.filter((environment) => settings[environment]);
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
