import { captchaKinds } from '@svc/protocol';
import { defineGroup, handlersIn } from '../../command.js';
import { projectCommand } from '../../common-options.js';

const run = handlersIn(() => import('./run.js'));

export const formsList = projectCommand('list', run('list'), {
  summary: 'list the project\'s forms: slug, name, endpoint id, URL, rate limit',
  examples: ['svc forms list', 'svc forms list --json | jq -r \'.forms[].url\''],
});

export const formsSet = projectCommand('set', run('set'), {
  summary: 'set a form\'s success and error URLs, notification emails and rate limit',
  description: `Change a form's settings; what is not given keeps its value. --success-url and --error-url are where a browser goes after a plain HTML post succeeds or fails (absolute http:// or https:// URLs; \`none\` removes one). --notify sets who is emailed about each new submission (comma-separated or the flag repeated; \`none\` for nobody; the server needs --smtp-url). --rate-limit takes requests/window as \`svc serve --rate-limit\` does, or \`default\`. --retention removes the form's submissions older than a duration (90d, 12h; at least 1m), in the background; \`none\` keeps them until deleted. Spam protection: --captcha makes every post solve a captcha (altcha is built in and needs nothing else; turnstile and hcaptcha need the provider's secret key, read from the environment variable named by --captcha-secret-env and stored encrypted); --max-links sends a submission with more links than that to Spam (\`none\` for no limit); --origins limits which browser pages may post: \`any\`, \`project\` (its domains and local development hosts) or a comma-separated list of origins.`,
  arguments: { slug: { description: 'the form\'s slug' } },
  flags: {
    successUrl: { flag: '--success-url <url>', description: 'where a browser goes after a successful post, or none' },
    errorUrl: { flag: '--error-url <url>', description: 'where a browser goes after a failed post (with ?error=CODE), or none' },
    notify: { flag: '--notify <emails...>', description: 'who is emailed about each new submission, or none' },
    rateLimit: { flag: '--rate-limit <limit>', description: 'requests/window per client IP, e.g. 10/1m, or default' },
    retention: { flag: '--retention <duration>', description: 'remove submissions older than this, e.g. 90d, or none to keep them' },
    captcha: { flag: '--captcha <kind>', description: 'the captcha every post must solve: none, altcha, turnstile or hcaptcha', choices: captchaKinds },
    captchaSecretEnv: { flag: '--captcha-secret-env <var>', description: 'environment variable holding the Turnstile or hCaptcha secret key (stored encrypted)' },
    maxLinks: { flag: '--max-links <n>', description: 'more links than this in a submission sends it to Spam, or none' },
    origins: { flag: '--origins <origins>', description: 'browser origins that may post: any, project, or ORIGIN,…' },
  },
  examples: [
    'svc forms set contact --success-url https://example.com/thanks --error-url https://example.com/oops',
    'svc forms set contact --notify sales@example.com,owner@example.com',
    'svc forms set contact --notify none --rate-limit default --json',
    'svc forms set contact --captcha altcha --max-links 2 --origins project',
    'TURNSTILE_SECRET=0x4AAA… svc forms set contact --captcha turnstile --captcha-secret-env TURNSTILE_SECRET',
  ],
});

export const formsSetRateLimit = projectCommand('set-rate-limit', run('setRateLimit'), {
  summary: 'give a form its own rate limit per client IP, or put it back on the default (as forms set --rate-limit)',
  description: `Give a form its own limit of submissions per client IP, written requests/window as for \`svc serve --rate-limit\` (window in s, m, h or d; a bare number is seconds), or \`default\` to use the server's limit again (30/5m unless the server sets another). Bounds: 1 to 1,000,000 requests, windows of 1 second to 24 hours.`,
  arguments: {
    slug: { description: 'the form\'s slug' },
    limit: { description: 'requests/window, e.g. 10/1m or 100/1h, or default' },
  },
  examples: ['svc forms set-rate-limit contact 10/1m', 'svc forms set-rate-limit contact default', 'svc forms set-rate-limit newsletter 1000/1h --json'],
});

export const formsCommand = defineGroup({
  name: 'forms',
  summary: 'the project\'s form endpoints: list them, change a form\'s settings',
  commands: [formsList, formsSet, formsSetRateLimit],
});
