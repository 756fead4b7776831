/** The tag to paste into a page (docs/pinpoints.md); hosted pages get it with their environment. */
export function widgetSnippet(baseUrl: string, key: string, environment?: string): string {
  const named = environment === undefined ? '' : ` data-environment="${environment}"`;
  return `<script src="${baseUrl}/pinpoints.js" data-key="${key}"${named} async></script>`;
}
