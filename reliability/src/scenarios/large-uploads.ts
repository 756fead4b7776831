import { createHash, randomBytes } from 'node:crypto';
import { createForm, request, residentBytes, sampleResident } from '@svc/testkit';
import { MiB, mb, type ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface LargeUploadsOptions extends ScenarioOptions {
  /** Uploads sent at once. */
  readonly concurrent: number;
  /** Size of each file, in MiB (within the server's limits). */
  readonly fileMiB: number;
}

/**
 * Large uploads: many big files at once, within the limits, while the server's resident
 * memory is sampled. Files must stream to their store (disk on SQLite; a spool file and
 * then chunks on PostgreSQL), so the peak grows by far less than the bytes in flight:
 * the check fails when it grows by half of them or more (holding every upload in memory
 * until commit grew it by all of them and more). Every file must be stored exactly.
 */
export function runLargeUploadsScenario(options: LargeUploadsOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'large-uploads', backend: options.backend, log: options.log }, async ({ store, problems, log, startServer, stopServers }) => {
    const inFlight = options.concurrent * options.fileMiB * MiB;
    log(`large uploads on ${options.backend}: ${options.concurrent} × ${options.fileMiB} MiB at once`);
    const form = await createForm(store, { rateLimit: { max: 1_000_000, windowSeconds: 3_600 } });
    const limit = `${options.fileMiB + 1}MiB`;
    const server = await startServer({ args: ['--max-file-size', limit, '--max-multipart-body', `${options.fileMiB + 2}MiB`] });
    const url = `${server.url}/api/f/${form.endpointId}`;
    const baseline = (await residentBytes(server.pid)) ?? 0;
    const sampler = sampleResident(server.pid, 50);
    const files = Array.from({ length: options.concurrent }, (_, index) => {
      // Mostly one repeated random block, so the client does not need gigabytes either; the first block makes each file distinct.
      const block = randomBytes(MiB);
      const content = Buffer.concat([randomBytes(1024), ...Array.from({ length: options.fileMiB }, () => block)]).subarray(0, options.fileMiB * MiB);
      return { content, sha256: createHash('sha256').update(content).digest('hex'), index };
    });
    const answers = await Promise.all(
      files.map(async ({ content, index }) => {
        const body = new FormData();
        body.append('upload', new Blob([content]), `upload-${index}.bin`);
        return (await request(url, { method: 'POST', body })).status;
      }),
    );
    const peak = (await sampler.stop()) ?? baseline;
    const growth = peak - baseline;
    for (const [index, status] of answers.entries()) if (status !== 200) problems.add(`upload ${index} was answered ${status}`, 'status');
    for (const file of files) {
      const stored = await store.files.open(file.sha256);
      if (stored === null) {
        problems.add(`LOST FILE: upload ${file.index} is not stored`, 'lost');
        continue;
      }
      const hash = createHash('sha256');
      for await (const chunk of stored) hash.update(chunk as Buffer);
      if (hash.digest('hex') !== file.sha256) problems.add(`upload ${file.index} was stored with other bytes`, 'differs');
    }
    log(`  ${answers.filter((status) => status === 200).length}/${options.concurrent} stored; RSS ${mb(baseline)} → peak ${mb(peak)} (+${mb(growth)} for ${mb(inFlight)} in flight)`);
    if (growth >= inFlight / 2) problems.add(`MEMORY: resident memory grew by ${mb(growth)} for ${mb(inFlight)} of uploads in flight: uploads are held in memory`);
    await stopServers();
    return { uploads: options.concurrent, fileMiB: options.fileMiB, baselineRss: mb(baseline), peakRss: mb(peak), growth: mb(growth), inFlight: mb(inFlight) };
  });
}
