import { defineCommand, defineGroup } from '../../command.js';
import { projectFlags } from '../../common-options.js';

export const formsList = defineCommand({
  name: 'list',
  summary: 'list the project\'s forms: slug, name, endpoint id, URL, rate limit',
  flags: projectFlags,
  examples: ['svc forms list', 'svc forms list --json | jq -r \'.forms[].url\''],
  run: async (context): Promise<number> => (await import('./run.js')).list(context),
});

export const formsSetRateLimit = defineCommand({
  name: 'set-rate-limit',
  summary: 'give a form its own rate limit per client IP, or put it back on the default',
  description: `Give a form its own limit of submissions per client IP, written requests/window as for \`svc serve --rate-limit\` (window in s, m, h or d; a bare number is seconds), or \`default\` to use the server's limit again (30/5m unless the server sets another). Bounds: 1 to 1,000,000 requests, windows of 1 second to 24 hours.`,
  arguments: {
    slug: { description: 'the form\'s slug' },
    limit: { description: 'requests/window, e.g. 10/1m or 100/1h, or default' },
  },
  flags: projectFlags,
  examples: ['svc forms set-rate-limit contact 10/1m', 'svc forms set-rate-limit contact default', 'svc forms set-rate-limit newsletter 1000/1h --json'],
  run: async (context): Promise<number> => (await import('./run.js')).setRateLimit(context),
});

export const formsCommand = defineGroup({
  name: 'forms',
  summary: 'the project\'s form endpoints: list them, set a form\'s rate limit',
  commands: [formsList, formsSetRateLimit],
});
