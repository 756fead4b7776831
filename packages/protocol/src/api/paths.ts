/**
 * Where the private CLI API lives. It never starts with `/v1`: that prefix belongs to the
 * planned public REST API, which is not available (docs/cli-api.md).
 */
export const cliApiPrefix = '/api/cli';

const segment = (value: string): string => encodeURIComponent(value);

/** Paths relative to the server's base URL, with every value percent-encoded. */
export const cliPaths = {
  token: () => `${cliApiPrefix}/token`,
  signInLinks: () => `${cliApiPrefix}/sign-in-links`,
  tokens: () => `${cliApiPrefix}/tokens`,
  revokeToken: (id: string) => `${cliApiPrefix}/tokens/${segment(id)}/revoke`,
  projects: () => `${cliApiPrefix}/projects`,
  project: (workspace: string, project: string) => `${cliApiPrefix}/projects/${segment(workspace)}/${segment(project)}`,
  config: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/config`,
  forms: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/forms`,
  form: (workspace: string, project: string, slug: string) => `${cliPaths.forms(workspace, project)}/${segment(slug)}`,
  formRateLimit: (workspace: string, project: string, slug: string) => `${cliPaths.form(workspace, project, slug)}/rate-limit`,
  eraseSubmissions: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/submissions/erase`,
  submission: (workspace: string, project: string, id: string) => `${cliPaths.project(workspace, project)}/submissions/${segment(id)}`,
  moveSubmission: (workspace: string, project: string, id: string) => `${cliPaths.submission(workspace, project, id)}/move`,
  submissionFile: (workspace: string, project: string, id: string, index: number) => `${cliPaths.submission(workspace, project, id)}/files/${index}`,
  submissions: (workspace: string, project: string, slug: string) => `${cliPaths.forms(workspace, project)}/${segment(slug)}/submissions`,
  export: (workspace: string, project: string, slug: string) => `${cliPaths.submissions(workspace, project, slug)}/export`,
  webhooks: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/webhooks`,
  webhook: (workspace: string, project: string, id: string) => `${cliPaths.webhooks(workspace, project)}/${segment(id)}`,
  rotateWebhookSecret: (workspace: string, project: string, id: string) => `${cliPaths.webhook(workspace, project, id)}/rotate-secret`,
  testWebhook: (workspace: string, project: string, id: string) => `${cliPaths.webhook(workspace, project, id)}/test`,
  enableWebhook: (workspace: string, project: string, id: string) => `${cliPaths.webhook(workspace, project, id)}/enable`,
  disableWebhook: (workspace: string, project: string, id: string) => `${cliPaths.webhook(workspace, project, id)}/disable`,
  deliveries: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/deliveries`,
  delivery: (workspace: string, project: string, id: string) => `${cliPaths.deliveries(workspace, project)}/${segment(id)}`,
  replayDeliveries: (workspace: string, project: string) => `${cliPaths.deliveries(workspace, project)}/replay`,
  resendDelivery: (workspace: string, project: string, id: string) => `${cliPaths.deliveries(workspace, project)}/${segment(id)}/resend`,
  pinpoints: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/pinpoints`,
  requests: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/requests`,
  requestSettings: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/requests-settings`,
  request: (workspace: string, project: string, id: string) => `${cliPaths.requests(workspace, project)}/${segment(id)}`,
  requestReplies: (workspace: string, project: string, id: string) => `${cliPaths.request(workspace, project, id)}/replies`,
  resolveRequest: (workspace: string, project: string, id: string) => `${cliPaths.request(workspace, project, id)}/resolve`,
  reopenRequest: (workspace: string, project: string, id: string) => `${cliPaths.request(workspace, project, id)}/reopen`,
  requestScreenshot: (workspace: string, project: string, id: string) => `${cliPaths.request(workspace, project, id)}/screenshot`,
  deploys: (workspace: string, project: string) => `${cliPaths.project(workspace, project)}/deploys`,
  deploy: (workspace: string, project: string, id: string) => `${cliPaths.deploys(workspace, project)}/${segment(id)}`,
  deployFile: (workspace: string, project: string, id: string, sha256: string) => `${cliPaths.deploy(workspace, project, id)}/files/${segment(sha256)}`,
  finalizeDeploy: (workspace: string, project: string, id: string) => `${cliPaths.deploy(workspace, project, id)}/finalize`,
  promoteDeploy: (workspace: string, project: string, id: string) => `${cliPaths.deploy(workspace, project, id)}/promote`,
  rollback: (workspace: string, project: string) => `${cliPaths.deploys(workspace, project)}/rollback`,
  auditLog: () => `${cliApiPrefix}/audit-log`,
} as const;
