import type { ServiceConfig } from '@svc/config';
import { ServiceError } from '@svc/protocol';
import type { ConfigChange } from '@svc/protocol/api';
import { newEndpointId } from '../lib/ids.js';
import { hostnamesOwnedElsewhere, listProjectDomains, replaceProjectDomains } from '../store/queries/domains.js';
import { deleteForm, insertForm, listProjectForms, updateForm } from '../store/queries/forms.js';
import { findProjectById, lockProject, updateProjectSettings } from '../store/queries/projects.js';
import { formSubmissionEvents, formSubmissions } from '../store/queries/submission-changes.js';
import type { ProjectRow } from '../store/schema.js';
import type { Db, Store } from '../store/store.js';
import { planConfig } from './config-plan.js';
import { eraseSubmissionRecord, fileHashes, type ErasureScope } from './submission-erasure.js';

export interface AppliedConfig {
  readonly changes: ConfigChange[];
  /** Whether any form was created, renamed, moved or deleted (the form cache must forget). */
  readonly formsChanged: boolean;
  readonly keptSlugs: readonly string[];
  readonly pruned: readonly { slug: string; submissions: number }[];
  /** The content hashes of the pruned submissions' files: removed once committed, unless still referred to. */
  readonly prunedFiles: readonly string[];
}

/**
 * Makes `project` match `config`, inside the caller's transaction: settings, forms (by
 * slug; a form the file does not list is kept unless `prune`, which deletes it with its
 * submissions, each erased as `svc submissions delete` erases one) and hostnames
 * (`conflict` when another project owns one; refused when the service keeps it back).
 */
export async function applyPlan(
  trx: Db,
  project: ProjectRow,
  config: ServiceConfig,
  options: { prune: boolean; workspaceSlug: string; now: number; classifyFailure: Store['classifyFailure']; reservedHostname: (hostname: string) => string | null },
): Promise<AppliedConfig> {
  await lockProject(trx, project.id);
  const locked = await findProjectById(trx, project.id);
  const forms = await listProjectForms(trx, project.id);
  const domains = await listProjectDomains(trx, project.id);
  const plan = planConfig(
    {
      framework: locked.framework,
      environments: JSON.parse(locked.environments),
      pinpoints: JSON.parse(locked.pinpoints),
      auto: JSON.parse(locked.auto),
      forms,
      domains,
    },
    config,
  );

  if (plan.domains) {
    const reserved = Object.fromEntries(
      plan.domains.flatMap((entry) => {
        const reason = options.reservedHostname(entry.hostname);
        return reason === null ? [] : [[`/domains/${entry.environment}/${entry.position}`, `${entry.hostname} ${reason}`]];
      }),
    );
    if (Object.keys(reserved).length > 0) throw new ServiceError('validation_failed', Object.values(reserved).join('; '), { errors: reserved });
    const owned = await hostnamesOwnedElsewhere(
      trx,
      project.id,
      plan.domains.map((entry) => entry.hostname),
    );
    if (owned.length > 0) throw hostnameConflict(owned);
    try {
      await replaceProjectDomains(trx, project.id, plan.domains, options.now);
    } catch (error) {
      if (options.classifyFailure(error) === 'unique') throw hostnameConflict([], error);
      throw error;
    }
  }
  if (Object.keys(plan.settings).length > 0) await updateProjectSettings(trx, project.id, plan.settings, options.now);
  for (const form of plan.createForms) {
    await insertForm(trx, { projectId: project.id, slug: form.slug, name: form.name, endpointId: newEndpointId(), position: form.position }, options.now);
  }
  for (const form of plan.updateForms) await updateForm(trx, form.id, { name: form.name, position: form.position }, options.now);

  const changes = [...plan.changes];
  const pruned: { slug: string; submissions: number }[] = [];
  const prunedFiles: string[] = [];
  if (options.prune) {
    for (const missing of plan.missingForms) {
      const form = forms.find((candidate) => candidate.id === missing.id)!;
      const scope = { workspaceSlug: options.workspaceSlug, projectId: project.id, projectName: project.name, form: { endpointId: form.endpoint_id, slug: form.slug, name: form.name } };
      const erased = await eraseFormSubmissions(trx, scope, form.id, options.now);
      await deleteForm(trx, form.id);
      prunedFiles.push(...erased.files);
      const submissions = erased.count;
      pruned.push({ slug: form.slug, submissions });
      changes.push({
        action: 'deleted',
        target: `forms.${form.slug}`,
        summary: `deleted form ${form.slug} and its ${submissions} ${submissions === 1 ? 'submission' : 'submissions'}`,
      });
    }
  }
  return {
    changes,
    formsChanged: plan.createForms.length + plan.updateForms.length + pruned.length > 0,
    keptSlugs: options.prune ? [] : plan.missingForms.map((form) => form.slug),
    pruned,
    prunedFiles,
  };
}

function hostnameConflict(hostnames: string[], cause?: unknown): ServiceError {
  const message =
    hostnames.length === 0
      ? 'a hostname was just taken by another project; run the command again to see which'
      : `${hostnames.join(', ')} ${hostnames.length === 1 ? 'is' : 'are'} already used by another project`;
  return new ServiceError('conflict', message, { hostnames }, cause === undefined ? undefined : { cause });
}

/** Erases every submission of a form as `svc submissions delete` erases one; their file hashes, to check after the commit. */
async function eraseFormSubmissions(trx: Db, scope: ErasureScope, formId: string, now: number): Promise<{ count: number; files: string[] }> {
  const events = await formSubmissionEvents(trx, scope.projectId, scope.form.endpointId);
  const submissions = await formSubmissions(trx, formId);
  const files: string[] = [];
  for (const submission of submissions) {
    await eraseSubmissionRecord(trx, scope, submission, events.get(submission.id) ?? [], now);
    files.push(...fileHashes(submission.files));
  }
  return { count: submissions.length, files };
}
