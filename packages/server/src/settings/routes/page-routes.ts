import type { FastifyInstance } from 'fastify';
import type { SettingsRequestTools } from '../settings-tools.js';
import { auditPages } from './audit-pages.js';
import { deployPages } from './deploy-pages.js';
import { formPages } from './form-pages.js';
import { memberPages } from './member-pages.js';
import { projectPages } from './project-pages.js';
import { requestPages } from './request-pages.js';
import { tokenPages } from './token-pages.js';
import { webhookPages } from './webhook-pages.js';

/** Every page under `/settings`; each needs a session (the area's hook redirects to `/login` without one). */
export function pageRoutes(app: FastifyInstance, tools: SettingsRequestTools): void {
  tokenPages(app, tools);
  memberPages(app, tools);
  auditPages(app, tools);
  projectPages(app, tools);
  webhookPages(app, tools);
  formPages(app, tools);
  requestPages(app, tools);
  deployPages(app, tools);
}
