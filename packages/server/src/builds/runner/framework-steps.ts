import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BuildError } from './build-error.js';

/** One command of a build, run in the checkout. */
export interface BuildStep {
  readonly command: string;
  readonly args: readonly string[];
  /** Whether the step needs the network (installing dependencies does). */
  readonly network: boolean;
  /**
   * Whether its network is the server's egress proxy alone, which reaches only what the
   * address policy allows (installing), rather than the host's (`--build-network`).
   */
  readonly proxied: boolean;
}

export interface FrameworkPlan {
  readonly steps: readonly BuildStep[];
  /** The output folder, relative to the checkout ('' for its root). */
  readonly outputDir: string;
}

/**
 * How each framework of `service.json` is built (docs/hosting.md): `static` is the
 * repository root as it is; `astro` and `next` install with `npm ci` (`npm install` without
 * a lock file) and run `npm run build`, their output in `dist` and `out` (a static export);
 * `unknown` cannot be built.
 *
 * Installing runs no package's scripts (`--ignore-scripts`): what runs while the network is
 * there is npm alone, and in the sandbox its network is the server's egress proxy, which
 * reaches only what the webhooks' address policy allows. The repository's own code runs in `npm run build`, without the network
 * unless the operator allows it (`--build-network`): with it, a build could reach services
 * that trust local connections, such as the server's database. Dev
 * dependencies are installed although `NODE_ENV` is `production`, since build tools
 * usually are ones. A project `.npmrc` cannot swap the git npm runs (`--git=git`).
 */
export function frameworkPlan(framework: string, checkoutDir: string, options: { readonly buildNetwork?: boolean | undefined } = {}): FrameworkPlan {
  switch (framework) {
    case 'static':
      return { steps: [], outputDir: '' };
    case 'astro':
      return { steps: npmSteps(checkoutDir, options.buildNetwork === true), outputDir: 'dist' };
    case 'next':
      return { steps: npmSteps(checkoutDir, options.buildNetwork === true), outputDir: 'out' };
    case 'unknown':
      throw new BuildError('build_failed', 'the project\'s framework is "unknown": set "framework" in service.json to static, astro or next to build from git');
    default:
      throw new BuildError('build_failed', `the framework "${framework}" is not one svc builds (static, astro, next)`);
  }
}

function npmSteps(checkoutDir: string, buildNetwork: boolean): BuildStep[] {
  if (!existsSync(join(checkoutDir, 'package.json'))) throw new BuildError('build_failed', 'the repository has no package.json at its root, so there is nothing to build with npm');
  const locked = existsSync(join(checkoutDir, 'package-lock.json')) || existsSync(join(checkoutDir, 'npm-shrinkwrap.json'));
  const quiet = ['--no-audit', '--no-fund', '--no-update-notifier'];
  return [
    { command: 'npm', args: [locked ? 'ci' : 'install', '--include=dev', '--ignore-scripts', '--git=git', ...quiet], network: true, proxied: true },
    { command: 'npm', args: ['run', 'build', '--no-update-notifier'], network: buildNetwork, proxied: false },
  ];
}
