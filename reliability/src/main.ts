// `npm run reliability`: every scenario at full size, on SQLite and on PostgreSQL + Redis
// (when they answer; under CI=true they must). Prints what each scenario did and found; exits 1
// when any found a loss, a duplicate, a 500, a crash or an SSRF. See bench/README.md.
import { parseArgs } from 'node:util';
import { inCi, postgresProblem, type BackendName } from '@svc/testkit';
import type { ScenarioResult } from './harness/report.js';
import { describeResult, runScenario, scenarioBackend, scenarioNames, type ScenarioName } from './scenarios/index.js';

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string', default: scenarioNames.join(',') },
    backend: { type: 'string', default: 'all' },
    bounded: { type: 'boolean', default: false },
    seed: { type: 'string' },
  },
});

const print = (line: string): void => void process.stdout.write(`${line}\n`);
const selected = flags.only.split(',') as ScenarioName[];
for (const name of selected) if (!scenarioNames.includes(name)) throw new Error(`unknown scenario ${name}; choose from ${scenarioNames.join(', ')}`);
const wanted: BackendName[] = flags.backend === 'all' ? ['sqlite', 'postgres'] : [flags.backend as BackendName];
const backends: BackendName[] = [];
for (const backend of wanted) {
  if (backend === 'postgres') {
    const problem = await postgresProblem();
    if (problem !== null) {
      if (inCi()) throw new Error(`CI=true requires PostgreSQL + Redis: ${problem}`);
      print(`⚠ skipping PostgreSQL + Redis: ${problem}`);
      continue;
    }
  }
  backends.push(backend);
}

const results: ScenarioResult[] = [];
const started = performance.now();
for (const name of selected) {
  for (const backend of backends) {
    if ((scenarioBackend[name] ?? backend) !== backend) continue;
    print('');
    const result = await runScenario(name, backend, flags.bounded ? 'bounded' : 'full', (line) => print(line), flags.seed === undefined ? undefined : Number(flags.seed));
    results.push(result);
    for (const line of describeResult(result)) print(line);
  }
}

const failed = results.filter((result) => result.problems.length > 0);
print('');
print(`${results.length} scenario runs in ${((performance.now() - started) / 1000).toFixed(0)} s: ${results.length - failed.length} passed, ${failed.length} failed`);
for (const result of failed) print(`  FAIL ${result.scenario} on ${result.backend}`);
process.exitCode = failed.length > 0 ? 1 : 0;
