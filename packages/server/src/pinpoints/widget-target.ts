import { ServiceError } from '@svc/protocol';
import type { RateLimitPolicy } from '../ratelimit/policy.js';
import type { RateLimitDecision, RateLimiter } from '../ratelimit/rate-limiter.js';
import { originAllowed, type ProjectDomain } from '../sites/page-origin.js';
import type { ProjectSites } from '../sites/project-sites.js';
import { findProjectByWidgetKey } from '../store/queries/projects.js';
import type { Db } from '../store/store.js';
import type { WidgetProject } from './request-records.js';
import { widgetSettings, type WidgetSettings } from './widget-settings.js';

/** Widget keys are `pk_` and 24 base32 characters; anything else is not looked up. */
const widgetKeyPattern = /^pk_[0-9a-z]{24}$/;

/** What a public widget call needs to know of the project its key names. */
export interface WidgetTarget {
  readonly project: WidgetProject;
  readonly settings: WidgetSettings;
  readonly domains: readonly ProjectDomain[];
}

export interface WidgetAdmissionServices {
  readonly db: Db;
  readonly sites: Pick<ProjectSites, 'domains'>;
}

/**
 * Before anything else of a widget call (docs/pinpoints.md): the key must name a project
 * (`not_found`), and a page that says where it is must be one of the project's
 * (`forbidden_origin`; a project with no domains yet takes any page). A POST must say where
 * it comes from when the project names its sites; a plain GET from the same origin carries
 * no `Origin` at all, and only reads.
 */
export async function admitWidgetCall(services: WidgetAdmissionServices, key: string, call: { readonly origin: string | undefined; readonly writes: boolean }): Promise<WidgetTarget> {
  const found = widgetKeyPattern.test(key) ? await findProjectByWidgetKey(services.db, key) : undefined;
  if (!found) throw new ServiceError('not_found', 'no project has this widget key');
  const domains = await services.sites.domains(found.project.id);
  const mustName = call.writes || call.origin !== undefined;
  if (mustName && !originAllowed(call.origin, domains.map((domain) => domain.hostname), { openWithoutDomains: true })) {
    throw new ServiceError('forbidden_origin', 'this site is not one of the project\'s domains');
  }
  return {
    project: { workspaceSlug: found.workspaceSlug, projectId: found.project.id, projectName: found.project.name },
    settings: widgetSettings(found.project.pinpoints),
    domains,
  };
}

/** A visitor's requests to a project count against the form endpoint's policy, per project (docs/pinpoints.md). */
export async function countWidgetPost(rateLimiter: RateLimiter, policy: RateLimitPolicy, target: WidgetTarget, clientAddress: string): Promise<RateLimitDecision> {
  return rateLimiter.consumeClient(policy, { scope: `pinpoints|${target.project.projectId}`, address: clientAddress });
}
