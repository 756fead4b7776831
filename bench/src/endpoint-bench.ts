import { type BackendName, createBackend, createForm, sampleResident, startSvc } from '@svc/testkit';
import type { LoadShape } from './load-shapes.js';
import type { LoadRunResult } from './load-runner.js';
import { runLoadProcess, startCeilingServer } from './processes.js';

export interface LoadSettings {
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** Flags for the measured server's node process (e.g. --cpu-prof). */
  readonly nodeArgs: readonly string[];
}

export interface EndpointFigures {
  readonly target: string;
  readonly shape: LoadShape;
  readonly requestsPerSecond: number;
  readonly latencyMs: LoadRunResult['latencyMs'];
  readonly peakRssBytes: number | null;
  readonly statusCodes: Record<string, number>;
  readonly errors: number;
  /** Every 200 of the warm-up and the run, and the submissions stored: equal when nothing was lost. */
  readonly durability: { readonly acknowledged: number; readonly stored: number } | null;
}

async function measure(url: string, pid: number, shape: LoadShape, settings: LoadSettings): Promise<{ warm: LoadRunResult; run: LoadRunResult; peakRssBytes: number | null }> {
  const warm = await runLoadProcess({ url, shape, connections: settings.connections, durationSeconds: settings.warmupSeconds, tag: `w${Date.now().toString(36)}` });
  const sampler = sampleResident(pid);
  const run = await runLoadProcess({ url, shape, connections: settings.connections, durationSeconds: settings.durationSeconds, tag: `r${Date.now().toString(36)}` });
  return { warm, run, peakRssBytes: await sampler.stop() };
}

/** The ceiling: a raw node:http server loaded exactly like the form endpoint. */
export async function benchCeiling(shape: LoadShape, settings: LoadSettings): Promise<EndpointFigures> {
  const server = await startCeilingServer();
  try {
    const { run, peakRssBytes } = await measure(`${server.url}/api/f/ceiling`, server.pid, shape, settings);
    return { target: 'ceiling', shape, requestsPerSecond: run.requestsPerSecond, latencyMs: run.latencyMs, peakRssBytes, statusCodes: run.statusCodes, errors: run.errors, durability: null };
  } finally {
    await server.stop();
  }
}

/**
 * The form endpoint of `svc serve` on one backend: a fresh store, one form, the rate limit
 * raised out of the way, every request with its own idempotency key. Afterwards the stored
 * submissions are counted against the 200s.
 */
export async function benchEndpoint(kind: BackendName, shape: LoadShape, settings: LoadSettings): Promise<EndpointFigures> {
  const backend = await createBackend(kind);
  const store = await backend.openStore();
  try {
    const form = await createForm(store);
    const server = await startSvc({ args: [...backend.serverArgs, '--rate-limit', '1000000/1h'], nodeArgs: settings.nodeArgs });
    let figures: Awaited<ReturnType<typeof measure>>;
    try {
      figures = await measure(`${server.url}/api/f/${form.endpointId}`, server.pid, shape, settings);
    } finally {
      const exit = await server.stop();
      if (exit !== 0) process.stderr.write(`svc serve exited with ${exit}\n${server.stderr()}\n`);
    }
    const { warm, run, peakRssBytes } = figures;
    const stored = await store.db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('form_id', '=', form.formId)
      .executeTakeFirstOrThrow();
    return {
      target: kind,
      shape,
      requestsPerSecond: run.requestsPerSecond,
      latencyMs: run.latencyMs,
      peakRssBytes,
      statusCodes: run.statusCodes,
      errors: run.errors,
      durability: { acknowledged: warm.ok + run.ok, stored: Number(stored.count) },
    };
  } finally {
    await store.close();
    await backend.cleanup();
  }
}
