// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self
// time, and the share of time in each package. `node profile-summary.js FILE [top]`.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileLine {
  readonly share: number;
  readonly ms: number;
  readonly what: string;
}

export async function summariseProfile(path: string, top = 25): Promise<{ functions: ProfileLine[]; packages: ProfileLine[]; totalMs: number }> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, index) => selfMs.set(id, (selfMs.get(id) ?? 0) + (deltas[index] ?? 0) / 1000));
  const totalMs = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);

  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const where = shortUrl(frame.url);
    const name = `${frame.functionName || '(anonymous)'} ${where}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const group = packageOf(frame.url, frame.functionName);
    packages.set(group, (packages.get(group) ?? 0) + ms);
  }
  const rank = (map: Map<string, number>, count: number): ProfileLine[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([what, ms]) => ({ what, ms, share: ms / totalMs }));
  return { functions: rank(functions, top), packages: rank(packages, 20), totalMs };
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const packages = url.indexOf('/packages/');
  if (packages >= 0) return url.slice(packages + 1);
  return url.replace(/^file:\/\//, '');
}

function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const ours = /\/packages\/([^/]+)\/dist\/([^/]+)/.exec(url);
  if (ours) return `@svc/${ours[1]}/${ours[2]!.replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return url;
  return url;
}

export function formatProfile(summary: Awaited<ReturnType<typeof summariseProfile>>): string {
  const line = (entry: ProfileLine): string => `  ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.ms.toFixed(0).padStart(6)} ms  ${entry.what}`;
  return [`self time by package (of ${summary.totalMs.toFixed(0)} ms):`, ...summary.packages.map(line), 'self time by function:', ...summary.functions.map(line)].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] !== undefined) {
  process.stdout.write(`${formatProfile(await summariseProfile(process.argv[2], Number(process.argv[3] ?? 30)))}\n`);
}
