import { ServiceError } from '@svc/protocol';
import { readSiteRules, type RulesFileReader } from '@svc/protocol/site-rules';

/**
 * A deploy's `_redirects` and `_headers`, checked when it is finalised, from `svc deploy`
 * or built from git (docs/hosting.md#redirects-and-headers): the first line that does not
 * parse, or the limit passed, as the `validation_failed` error that fails the deploy
 * (`_redirects:LINE: why`); null when both parse (or the deploy has neither). The same
 * parser as `svc deploy --dry-run` and hosting (`@svc/protocol/site-rules`).
 */
export async function siteRulesProblem(read: RulesFileReader): Promise<ServiceError | null> {
  try {
    await readSiteRules(read);
    return null;
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'validation_failed') return error;
    throw error;
  }
}
