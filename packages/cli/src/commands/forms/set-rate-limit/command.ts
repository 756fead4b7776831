import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { SetRateLimitFlags } from './run-set-rate-limit.js';

export const setRateLimitCommand = defineCommand<SetRateLimitFlags>({
  name: 'set-rate-limit',
  summary: 'give a form its own rate limit per client IP, or put it back on the default',
  description: `Give a form its own limit of submissions per client IP, written requests/window as for \`svc serve --rate-limit\` (window in s, m, h or d; a bare number is seconds), or \`default\` to use the server's limit again (30/5m unless the server sets another). Bounds: 1 to 1,000,000 requests, windows of 1 second to 24 hours.`,
  arguments: [
    { name: '<slug>', description: 'the form\'s slug' },
    { name: '<limit>', description: 'requests/window, e.g. 10/1m or 100/1h, or default' },
  ],
  options: [...projectOptions],
  examples: ['svc forms set-rate-limit contact 10/1m', 'svc forms set-rate-limit contact default', 'svc forms set-rate-limit newsletter 1000/1h --json'],
  run: async (context) => (await import('./run-set-rate-limit.js')).runSetRateLimit(context),
});
