import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { serviceSchema } from './schema.js';
import type { ServiceConfig } from './service-config.generated.js';

/** Keywords of editors (VS Code) that carry no rule: declared so that ajv's strict mode stays on. */
const editorKeywords = ['markdownDescription', 'markdownEnumDescriptions', 'patternErrorMessage', 'defaultSnippets'];

let compiled: ValidateFunction<ServiceConfig> | undefined;

/**
 * The ajv validator of the schema, compiled on first use and then reused. `verbose` keeps
 * the failing value and its schema on each error, to word the messages.
 */
export function schemaValidator(): ValidateFunction<ServiceConfig> {
  if (compiled === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });
    ajv.addVocabulary(editorKeywords);
    formats.default(ajv, ['uri']);
    compiled = ajv.compile<ServiceConfig>(serviceSchema);
  }
  return compiled;
}
