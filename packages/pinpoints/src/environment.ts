/** The environments of a project (the specification's `environments` keys). */
export const environments = ['production', 'staging', 'development'] as const;
export type Environment = (typeof environments)[number];

export function isEnvironment(value: string | null | undefined): value is Environment {
  return value !== null && value !== undefined && (environments as readonly string[]).includes(value);
}

/**
 * The environment the tag names with `data-environment`, when it names one. Without it the
 * server decides from the page's hostname (the project's `domains`, then local hosts), so
 * the widget never needs to know the project's domains (docs/pinpoints.md).
 */
export function taggedEnvironment(script: HTMLScriptElement): Environment | null {
  const value = script.dataset['environment']?.trim().toLowerCase();
  return isEnvironment(value) ? value : null;
}
