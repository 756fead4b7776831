import type { ServiceConfig } from './service-config.generated.js';

/** A place in the text of service.json: 1-based line and column (UTF-16 code units). */
export interface Position {
  line: number;
  column: number;
}

/** One problem found in service.json. */
export interface ConfigError extends Position {
  /** JSON Pointer (RFC 6901) of the value concerned; "" is the whole document. */
  pointer: string;
  /** What is wrong, for a person: `must be >= 60`, `unknown property "foo"`. */
  message: string;
}

export type ValidationResult =
  | { ok: true; config: ServiceConfig; errors: [] }
  | { ok: false; errors: ConfigError[] };
