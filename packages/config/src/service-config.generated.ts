/*
 * Generated from schema/service.schema.json by scripts/generate-types.mjs: do not edit.
 * Run `npm run generate -w @svc/config` after changing the schema.
 */

/**
 * A slug: 1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit.
 */
export type Slug = string;
/**
 * A hostname: 1 to 253 characters, at least two labels separated by dots, each label 1 to 63 letters, digits and hyphens that neither starts nor ends with a hyphen.
 */
export type Hostname = string;

/**
 * Project configuration of the service: workspace and project, framework, git branch per environment, form endpoints, custom hostnames, Pinpoints widget and "auto" behaviour. Check it offline with `svc validate`.
 */
export interface ServiceConfig {
  /**
   * URI of this JSON Schema, for editor autocompletion and checks. `svc init` writes the address of your server's /schema/service.json.
   */
  $schema?: string;
  workspace: Slug;
  /**
   * Name of the project within the workspace.
   */
  project: string;
  /**
   * Framework the project is built with; it determines the build defaults.
   */
  framework: 'next' | 'astro' | 'static' | 'unknown';
  environments: Environments;
  /**
   * Form endpoints registered for the project. Each form slug may appear only once.
   */
  forms?: Form[];
  domains?: Domains;
  pinpoints?: Pinpoints;
  auto?: Auto;
}
/**
 * The git branch that maps to each environment. `production` is required; `staging` and `development` are optional.
 */
export interface Environments {
  production: Environment;
  staging?: Environment;
  development?: Environment;
}
/**
 * An environment of the project and the git branch that maps to it.
 */
export interface Environment {
  /**
   * Name of the git branch that maps to this environment.
   */
  branch: string;
}
/**
 * A form endpoint of the project.
 */
export interface Form {
  slug: Slug;
  /**
   * Display name of the form.
   */
  name?: string;
}
/**
 * Custom hostnames per environment. A hostname may appear only once across all environments (case-insensitive).
 */
export interface Domains {
  /**
   * Custom hostnames of the production environment.
   */
  production?: Hostname[];
  /**
   * Custom hostnames of the staging environment.
   */
  staging?: Hostname[];
  /**
   * Custom hostnames of the development environment.
   */
  development?: Hostname[];
}
/**
 * Settings of the Pinpoints widget: on or off per environment, redaction, IP retention.
 */
export interface Pinpoints {
  /**
   * Whether the widget is on in production.
   */
  production?: boolean;
  /**
   * Whether the widget is on in staging.
   */
  staging?: boolean;
  /**
   * Whether the widget is on in development.
   */
  development?: boolean;
  /**
   * CSS selectors of elements to redact automatically in captured screenshots.
   *
   * Items: A CSS selector; must not be empty.
   */
  redact?: string[];
  /**
   * Whether visitor IPs are retained for spam mitigation. When false, they are not retained.
   */
  storeIp?: boolean;
}
/**
 * Overrides of the "auto" behaviour.
 */
export interface Auto {
  /**
   * Per-request hard timeout in seconds: an integer from 60 to 1800.
   */
  timeout?: number;
}
