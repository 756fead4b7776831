import { ServiceError } from '@svc/protocol';
import type { Logger } from 'pino';
import { hashToken } from '../auth/token-secrets.js';
import { releaseContents } from '../contents/stored-contents.js';
import { storedIp, type FormIpMode } from '../forms/stored-ip.js';
import type { UploadQuota } from '../forms/upload-quota.js';
import { newId, randomToken } from '../lib/ids.js';
import { environmentOfHost, originHostname } from '../sites/page-origin.js';
import { insertRequest } from '../store/queries/requests.js';
import type { RequestRow } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { emitRequestEvent, eventRequest } from './request-records.js';
import type { VisitorRequest } from './request-body.js';
import type { WidgetTarget } from './widget-target.js';

export interface RequestServices {
  readonly store: Store;
  /** The per-project quota of stored uploads, shared with the form endpoint (docs/hosting.md). */
  readonly quota: UploadQuota;
  /** How much of a visitor's address is kept where the project keeps IPs at all. */
  readonly formIp: FormIpMode;
  readonly logger: Logger;
  readonly now: () => number;
}

/** A visitor's request to an admitted project, its body read. */
export interface PostedRequest {
  readonly target: WidgetTarget;
  /** Checked; its screenshot staged: accepting the request owns it from here. */
  readonly visitor: VisitorRequest;
  readonly client: {
    readonly address: string;
    readonly userAgent: string | undefined;
    readonly origin: string | undefined;
    /** The request carried the honeypot header. */
    readonly honeypotHeader: boolean;
  };
}

/**
 * `POST /api/p/{key}/requests` (docs/pinpoints.md), the use case: the page's environment
 * (the form's `environment`, else the one whose domains hold the page's host) must have the
 * widget on (`pinpoints_disabled`), the screenshot must fit the project's quota, the
 * visitor's IP is kept as the project and `--form-ip` say, and the honeypot makes it spam
 * silently. Then the screenshot is made permanent and the request and its `request.created`
 * event are written in one transaction; when that fails, the screenshot goes again
 * (docs/privacy.md). The reporter's read token is returned once; only its hash is kept.
 */
export async function acceptRequest(services: RequestServices, posted: PostedRequest): Promise<{ id: string; readToken: string }> {
  const { target, visitor, client } = posted;
  const staged = visitor.screenshot?.staged ?? null;
  try {
    const environment = visitor.environment ?? environmentOfHost(originHostname(client.origin) ?? '', target.domains);
    if (environment === null || !target.settings[environment]) {
      throw new ServiceError('pinpoints_disabled', environment === null ? 'the page is in no environment of this project' : `the widget is off in ${environment}`);
    }
    if (staged) await services.quota.allow(target.project.projectId, staged.size);
    return await store(services, posted, environment);
  } catch (error) {
    await staged?.discard();
    throw error;
  }
}

async function store(services: RequestServices, posted: PostedRequest, environment: RequestRow['environment']): Promise<{ id: string; readToken: string }> {
  const { target, visitor, client } = posted;
  const spam = client.honeypotHeader;
  const now = services.now();
  const id = newId('req', now);
  const readToken = randomToken(160);
  if (visitor.screenshot) await visitor.screenshot.staged.commit();
  const row: RequestRow = {
    id,
    project_id: target.project.projectId,
    environment,
    status: spam ? 'spam' : 'open',
    comment: visitor.comment,
    url: visitor.url,
    selector: visitor.selector,
    name: visitor.name,
    email: visitor.email,
    viewport: visitor.viewport,
    element_x: visitor.elementBox?.x ?? null,
    element_y: visitor.elementBox?.y ?? null,
    element_width: visitor.elementBox?.width ?? null,
    element_height: visitor.elementBox?.height ?? null,
    user_agent: client.userAgent === undefined ? null : client.userAgent.slice(0, 512),
    client_ip: target.settings.storeIp ? storedIp(client.address, services.formIp) : null,
    screenshot_sha256: visitor.screenshot?.staged.sha256 ?? null,
    screenshot_size: visitor.screenshot?.staged.size ?? null,
    screenshot_error: visitor.screenshotError,
    read_token_hash: hashToken(readToken),
    created_at: now,
    updated_at: now,
  };
  try {
    await services.store.transaction(async (trx) => {
      await insertRequest(trx, row);
      if (!spam) await emitRequestEvent(trx, target.project, 'request.created', { request: eventRequest(row) }, now);
    });
  } catch (error) {
    // No request refers to the screenshot: it goes too, unless something else holds the same contents.
    if (visitor.screenshot) await releaseContents(services.store, [visitor.screenshot.staged.sha256]).catch((cause: unknown) => services.logger.warn({ err: cause }, 'a screenshot whose request failed is left to the sweep'));
    throw error;
  }
  if (!spam) services.store.signals.events.announce();
  return { id, readToken };
}
