import type { BackendName } from '@svc/testkit';
import type { Log, ScenarioResult } from '../harness/report.js';
import { runAddressFloodScenario } from './address-flood.js';
import { runBackupRestoreScenario } from './backup-restore.js';
import { runBadInputScenario } from './bad-input.js';
import { runConnectionFloodScenario } from './connection-flood.js';
import { runCrashScenario } from './crash.js';
import { runDataDirRemovedScenario, runDiskFullScenario, runPostgresRestartScenario, runRedisOutageScenario } from './dependency-outages.js';
import { runDurabilityScenario } from './durability.js';
import { runErasureScenario } from './erasure.js';
import { runFailingReceiverScenario } from './failing-receiver.js';
import { runGitPushesScenario } from './git-pushes.js';
import { runLargeUploadsScenario } from './large-uploads.js';
import { runRaceScenario } from './races.js';
import { runRateLimitScenario } from './rate-limit.js';
import { runRetentionScenario } from './retention.js';
import { runSsrfScenario } from './ssrf.js';

export type ScenarioName =
  | 'crash'
  | 'durability'
  | 'races'
  | 'rate-limit'
  | 'address-flood'
  | 'bad-input'
  | 'ssrf'
  | 'failing-receiver'
  | 'erasure'
  | 'retention'
  | 'connection-flood'
  | 'large-uploads'
  | 'postgres-restart'
  | 'redis-outage'
  | 'disk-full'
  | 'data-dir-removed'
  | 'git-pushes'
  | 'backup-restore';
export const scenarioNames: readonly ScenarioName[] = [
  'crash',
  'durability',
  'races',
  'rate-limit',
  'address-flood',
  'bad-input',
  'ssrf',
  'failing-receiver',
  'erasure',
  'retention',
  'connection-flood',
  'large-uploads',
  'postgres-restart',
  'redis-outage',
  'disk-full',
  'data-dir-removed',
  'git-pushes',
  'backup-restore',
];

/** Scenarios about one backend's own dependency: run on that backend only. */
export const scenarioBackend: Partial<Record<ScenarioName, BackendName>> = {
  'postgres-restart': 'postgres',
  'redis-outage': 'postgres',
  'disk-full': 'sqlite',
  'data-dir-removed': 'sqlite',
};

/** How big a run is: `full` for `npm run reliability`, `bounded` for the copies inside `npm test`. */
export type RunSize = 'full' | 'bounded';

/**
 * Every scenario with its sizes, on one backend. Sizes are configuration: the bounded run uses
 * the same code with fewer kills, rounds and requests, never shorter sleeps.
 */
export function runScenario(name: ScenarioName, backend: BackendName, size: RunSize, log: Log, seed?: number): Promise<ScenarioResult> {
  const full = size === 'full';
  const instances = backend === 'postgres' ? 2 : 1;
  switch (name) {
    case 'crash':
      return runCrashScenario({
        backend,
        kills: full ? 10 : 5,
        connections: full ? 32 : 8,
        upMs: full ? [500, 3_000] : [300, 1_000],
        deliveryWaitMs: full ? 180_000 : 60_000,
        log,
        ...(seed === undefined ? {} : { seed }),
      });
    case 'durability':
      return runDurabilityScenario({ backend, submissions: full ? 500 : 100, log });
    case 'races':
      return runRaceScenario({ backend, instances, concurrency: 100, rounds: full ? 20 : 3, log });
    case 'rate-limit':
      return runRateLimitScenario({ backend, instances, clients: full ? 10 : 3, endpoints: full ? 3 : 2, requestsPerPair: full ? 60 : 40, concurrency: 64, log });
    case 'address-flood':
      // Full: every /64 of a /48, and more windows than the default --rate-limit-keys holds.
      return full
        ? runAddressFloodScenario({ backend, ipv6Subnets: 65_536, ipv4Addresses: 55_000, maxGrowthMiB: 150, concurrency: 64, log })
        : runAddressFloodScenario({ backend, ipv6Subnets: 1_000, ipv4Addresses: 1_500, maxKeys: 1_000, maxGrowthMiB: 60, concurrency: 32, log });
    case 'bad-input':
      return runBadInputScenario({ backend, requests: full ? 12_000 : 3_000, concurrency: 16, log, ...(seed === undefined ? {} : { seed }) });
    case 'ssrf':
      return runSsrfScenario({ backend, waitMs: full ? 60_000 : 30_000, log });
    case 'failing-receiver':
      return runFailingReceiverScenario({ backend, submissions: full ? 500 : 60, concurrency: 16, log });
    case 'erasure':
      return runErasureScenario({ backend, people: full ? 20 : 4, submissionsEach: full ? 10 : 3, load: full ? 2_000 : 200, concurrency: 16, log });
    case 'retention':
      return runRetentionScenario({ backend, old: full ? 10_000 : 1_000, load: full ? 3_000 : 300, concurrency: 16, log });
    case 'connection-flood':
      return runConnectionFloodScenario({ backend, connections: full ? 5_000 : 600, submissions: full ? 300 : 60, log });
    case 'large-uploads':
      return runLargeUploadsScenario({ backend, concurrent: full ? 30 : 8, fileMiB: full ? 24 : 16, log });
    case 'postgres-restart':
      return runPostgresRestartScenario({ clients: full ? 16 : 4, perSecond: full ? 200 : 40, outageMs: full ? 10_000 : 3_000, steadyMs: full ? 3_000 : 1_000, deliveryWaitMs: full ? 120_000 : 60_000, log });
    case 'redis-outage':
      return runRedisOutageScenario({ clients: full ? 16 : 4, perSecond: full ? 200 : 40, outageMs: full ? 10_000 : 3_000, steadyMs: full ? 2_000 : 1_000, deliveryWaitMs: 0, log });
    case 'disk-full':
      return runDiskFullScenario({ clients: full ? 8 : 4, perSecond: full ? 100 : 40, outageMs: full ? 5_000 : 2_000, steadyMs: full ? 2_000 : 1_000, deliveryWaitMs: 0, log });
    case 'git-pushes':
      return runGitPushesScenario({ backend, pushes: full ? 30 : 6, submissions: full ? 3_000 : 300, concurrency: 16, settleMs: full ? 300_000 : 120_000, log });
    case 'backup-restore':
      return runBackupRestoreScenario({ backend, posts: full ? 2_000 : 200, concurrency: full ? 16 : 8, filesEvery: 10, log });
    case 'data-dir-removed':
      return runDataDirRemovedScenario({ clients: full ? 8 : 4, perSecond: full ? 100 : 40, outageMs: full ? 3_000 : 1_500, steadyMs: full ? 2_000 : 1_000, deliveryWaitMs: 0, log });
  }
}

/** One scenario's result as lines: what it did and what it found. */
export function describeResult(result: ScenarioResult): string[] {
  const facts = Object.entries(result.facts).map(([name, value]) => `${name} ${value}`).join(', ');
  const head = `${result.problems.length === 0 ? 'PASS' : 'FAIL'} ${result.scenario} on ${result.backend} in ${(result.durationMs / 1000).toFixed(1)} s: ${facts}`;
  return [head, ...result.problems.map((problem) => `    ✗ ${problem}`)];
}
