import { serviceHostnames } from '../sites/hosted-sites.js';
import type { OperationContext } from './context.js';

/**
 * Why a project may not claim `hostname` in its `domains` (docs/hosting.md, "Domains and
 * DNS"), or null when it may: the service's own addresses (its base and forms URLs) and the
 * addresses it gives out under `--preview-domain` belong to no project. Under the default
 * preview domain, `localhost`, which one machine's local work shares, only the names shaped
 * like the service's own (a deploy's preview, a label with `--` as branch addresses have)
 * are kept back; every other `*.localhost` name stays a convenient local domain.
 */
export function reservedHostnameReason(context: Pick<OperationContext, 'urls' | 'options'>, hostname: string): string | null {
  if (serviceHostnames(context).has(hostname)) return 'is the service\'s own address';
  const previewDomain = context.options.previewDomain.toLowerCase();
  if (hostname === previewDomain) return 'is the preview domain';
  if (!hostname.endsWith(`.${previewDomain}`)) return null;
  const label = hostname.slice(0, -previewDomain.length - 1);
  const shapedLikeOurs = /^dpl-/.test(label) || label.includes('--');
  if (previewDomain !== 'localhost' || shapedLikeOurs) return `is under the preview domain ${previewDomain}, whose addresses the service gives out`;
  return null;
}
