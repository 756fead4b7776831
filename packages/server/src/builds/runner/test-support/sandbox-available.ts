import { probeBubblewrap } from '../sandbox.js';

/**
 * Whether the sandbox tests can run. Under CI=true bubblewrap must work (.ci/run installs
 * it) and a missing one fails the suite; elsewhere those tests skip with a message.
 */
export async function sandboxAvailable(): Promise<boolean> {
  const problem = await probeBubblewrap();
  if (problem === null) return true;
  if (['true', '1'].includes((process.env.CI ?? '').toLowerCase())) throw new Error(`CI=true requires the build sandbox tests to run, but ${problem} (apt-get install -y bubblewrap)`);
  process.stderr.write(`\n  ⚠ skipping the build sandbox tests: ${problem} (apt-get install -y bubblewrap)\n\n`);
  return false;
}
