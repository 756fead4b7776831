import { createHash } from 'node:crypto';

/**
 * A deploy made through the CLI API as `svc deploy` makes one (start with the manifest,
 * upload each content, finalize), for tests and the bench that need a live site without
 * the CLI (`source`: the branch and commit it was built from). Returns the deploy's id; throws with the answer when a step is refused.
 */
export async function deployThroughApi(
  url: string,
  token: string,
  target: { workspace: string; project: string; environment: string },
  files: Readonly<Record<string, string | Buffer>>,
  source: { branch?: string; commit?: string } = {},
): Promise<string> {
  const base = `${url}/api/cli/projects/${target.workspace}/${target.project}/deploys`;
  const call = async (path: string, method: string, body: Buffer | Record<string, unknown>): Promise<Record<string, unknown>> => {
    const binary = Buffer.isBuffer(body);
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': binary ? 'application/octet-stream' : 'application/json' },
      body: binary ? new Uint8Array(body) : JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const contents = Object.entries(files).map(([path, content]) => ({ path, content: Buffer.from(content) }));
  const manifest = contents.map(({ path, content }) => ({ path, size: content.length, sha256: createHash('sha256').update(content).digest('hex') }));
  const started = await call('', 'POST', { environment: target.environment, files: manifest, ...source });
  const id = (started['deploy'] as { id: string }).id;
  const missing = new Set(started['missing'] as string[]);
  for (const [index, file] of manifest.entries()) {
    if (missing.delete(file.sha256)) await call(`/${id}/files/${file.sha256}`, 'PUT', contents[index]!.content);
  }
  await call(`/${id}/finalize`, 'POST', {});
  return id;
}
