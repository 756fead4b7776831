import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { validate, type ServiceConfig } from '@svc/config';
import { cliPaths, ServiceError } from '@svc/protocol';
import { DeployResponse, StartDeployResponse, UploadDeployFileResponse, type EnvironmentName } from '@svc/protocol/api';
import { walkSite, type SiteEntry, type SkippedPath } from '@svc/protocol/site-files';
import { readSiteRules, siteEntriesReader } from '@svc/protocol/site-rules';
import type { ContextOf } from '../../command.js';
import { connect } from '../../credentials/connect.js';
import { ProgressLine } from '../../export/progress-line.js';
import { detectBranch, detectCommit } from '../../project/detect-branch.js';
import { resolveProject } from '../../project/project-ref.js';
import { readServiceFileText } from '../../project/service-file.js';
import type { Io } from '../../io.js';
import type { deployCommand } from './commands.js';
import { dryRunText, lookBeforeDns, skippedSummary, uploadNote } from './deploy-text.js';
import { hashSiteFiles, outputDirectory, stateFolders, type SiteFile } from './site-files.js';

/** Uploads in flight at once. */
const uploadConcurrency = 4;

/** `svc deploy`: hash, ask what is missing, upload it, finalise (docs/hosting.md). */
export async function deploy(context: ContextOf<typeof deployCommand>): Promise<number> {
  const { options, io, out } = context;
  const config = await readConfig(io.cwd);
  if (options.dryRun) return dryRun(context, config);
  const ref = await resolveProject(io, options);
  const branch = await detectBranch(io.cwd);
  const environment = chooseEnvironment(options.environment, config, branch);
  if (options.build) await runBuild(io);
  const site = await readSite(context, config);
  const files = await hashSiteFiles(site.files);

  const api = await connect(io);
  const started = await api.post(
    cliPaths.deploys(ref.workspace, ref.project),
    { environment, ...(branch === undefined ? {} : { branch }), ...optionalCommit(await detectCommit(io.cwd)), files: files.map(({ path, sha256, size }) => ({ path, sha256, size })) },
    StartDeployResponse,
  );
  const id = started.deploy.id;
  const byHash = new Map<string, SiteFile>(files.map((file) => [file.sha256, file]));
  const uploads = started.missing.map((sha256) => byHash.get(sha256)).filter((file): file is SiteFile => file !== undefined);
  const progress = new ProgressLine(io.stderr, uploads.length, Date.now, 100, (done, total) => `uploading: ${done} of ${total} files`);
  let done = 0;
  let uploadedBytes = 0;
  const queue = [...uploads];
  const worker = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      await api.upload(cliPaths.deployFile(ref.workspace, ref.project, id, file.sha256), file.absolute, UploadDeployFileResponse);
      done += 1;
      uploadedBytes += file.size;
      progress.update(done);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(uploadConcurrency, uploads.length) }, worker));
  } finally {
    progress.finish();
  }
  const { deploy: finished } = await api.post(cliPaths.finalizeDeploy(ref.workspace, ref.project, id), {}, DeployResponse);
  const result = { ok: true as const, deploy: { ...finished, uploadedFiles: uploads.length, uploadedBytes }, skipped: site.skipped };
  const lookHere = finished.url === null || out.json ? null : await lookBeforeDns(finished.url, api.apiUrl);
  out.result(result, () =>
    [
      `Deployed ${finished.files} ${finished.files === 1 ? 'file' : 'files'} to ${environment} (${uploadNote(byHash.size, uploads.length)}): ${finished.id}`,
      skippedSummary(site.skipped),
      finished.url === null ? `${environment} has no domain in service.json; see it at the preview address.` : `Live at ${finished.url}`,
      lookHere === null ? null : `  ${lookHere}`,
      `Preview: ${finished.previewUrl}`,
    ]
      .filter((line) => line !== null)
      .join('\n'),
  );
  return 0;
}

/** `svc deploy --dry-run`: the checks a deploy makes on this machine, then what it would upload and skip; no server. */
async function dryRun(context: ContextOf<typeof deployCommand>, config: ServiceConfig | null): Promise<number> {
  const { options, io, out } = context;
  const environment = chooseEnvironment(options.environment, config, await detectBranch(io.cwd));
  if (options.build) await runBuild(io);
  const site = await readSite(context, config);
  // The rules files parsed by the server's own parser: a bad line is reported here, before any upload (`_redirects:LINE: why`).
  const rules = await readSiteRules(siteEntriesReader(site.files));
  const files = site.files.map(({ path, size }) => ({ path, size }));
  const counts = { redirects: rules.redirects.length, headers: rules.headers.length };
  out.result({ ok: true, dryRun: true, files, skipped: site.skipped }, () => dryRunText({ folder: site.shown, environment, files, skipped: site.skipped, rules: counts }));
  return 0;
}

/**
 * The folder to deploy, walked by the rules every deploy follows (what is skipped), and
 * refused when a deploy of it would take the site down: no file, or no `index.html` at its
 * root without `--allow-no-index`.
 */
async function readSite(context: ContextOf<typeof deployCommand>, config: ServiceConfig | null): Promise<{ shown: string; files: SiteEntry[]; skipped: SkippedPath[] }> {
  const { io, options } = context;
  const directory = await siteDirectory(io.cwd, context.args.dir, config);
  const shown = relativeToCwd(io.cwd, directory);
  const { files, skipped } = await walkSite(directory, { stateFolders: stateFolders(io) });
  if (files.length === 0) throw new ServiceError('file_not_found', [`${shown} has no files to deploy.`, skippedSummary(skipped)].filter((part) => part !== null).join(' '));
  if (!options.allowNoIndex && !files.some((file) => file.path === 'index.html')) throw new ServiceError('index_missing', noIndexMessage(shown, config));
  return { shown, files, skipped };
}

function noIndexMessage(shown: string, config: ServiceConfig | null): string {
  const framework = config?.framework;
  const usual = framework === undefined ? null : outputDirectory(framework);
  const where =
    framework === 'static'
      ? 'A static site deploys its own folder (.), with index.html at the top.'
      : framework === 'next'
        ? "next writes its static export into out (output: 'export' in next.config, then `npm run build`, or `svc deploy --build`); deploy that folder."
        : usual !== null
        ? `${framework} builds the site into ${usual} (\`npm run build\`, or \`svc deploy --build\`); deploy that folder.`
        : 'Build tools usually write the site into dist (astro, vite) or out (next).';
  return `${shown} has no index.html at its root, so the site's address would answer 404. ${where} Pass --allow-no-index to deploy it anyway.`;
}

function relativeToCwd(cwd: string, directory: string): string {
  const path = relative(cwd, directory);
  if (path === '') return '.';
  return path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path) ? directory : path;
}

async function readConfig(cwd: string): Promise<ServiceConfig | null> {
  const text = await readServiceFileText(cwd);
  if (text === null) return null;
  const checked = validate(text);
  if (!checked.ok) throw new ServiceError('config_invalid', 'service.json is not valid; `svc validate` shows why');
  return checked.config;
}

/** `--environment`, else the environment whose branch is the one checked out. */
function chooseEnvironment(given: EnvironmentName | undefined, config: ServiceConfig | null, branch: string | undefined): EnvironmentName {
  if (given !== undefined) return given;
  const environments = Object.entries(config?.environments ?? {}) as [EnvironmentName, { branch: string }][];
  const matched = environments.find(([, settings]) => settings.branch === branch);
  if (matched) return matched[0];
  const known = environments.map(([name, settings]) => `${name} ← ${settings.branch}`).join(', ');
  const why = branch === undefined ? 'no git branch is checked out here' : `the branch ${branch} is no environment's branch${known === '' ? '' : ` (${known})`}`;
  throw new ServiceError('usage', `say which environment with --environment: ${why}`);
}

async function siteDirectory(cwd: string, given: string | undefined, config: ServiceConfig | null): Promise<string> {
  const chosen = given ?? (config ? outputDirectory(config.framework) : null);
  if (chosen === null) {
    throw new ServiceError('usage', config ? `the framework "${config.framework}" has no known output directory: pass the directory to deploy` : 'pass the directory to deploy (there is no service.json here to say the framework)');
  }
  const directory = resolve(cwd, chosen);
  const info = await stat(directory).catch(() => null);
  if (!info) throw new ServiceError('file_not_found', `${directory} does not exist${given === undefined ? ' (build the site first, or pass --build)' : ''}`);
  if (!info.isDirectory()) throw new ServiceError('file_unreadable', `${directory} is not a directory`);
  return directory;
}

/** `npm run build`, its output on stderr so that stdout stays the deploy's answer. */
async function runBuild(io: Io): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['run', 'build'], { cwd: io.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(io.stderr, { end: false });
  child.stderr.pipe(io.stderr, { end: false });
  const code = await new Promise<number | null>((settle) => {
    child.once('error', () => settle(null));
    child.once('close', settle);
  });
  if (code !== 0) throw new ServiceError('build_failed', code === null ? 'could not run `npm run build`' : `\`npm run build\` exited with ${code}; nothing was deployed`);
}

function optionalCommit(commit: string | undefined): { commit?: string } {
  return commit === undefined ? {} : { commit };
}
