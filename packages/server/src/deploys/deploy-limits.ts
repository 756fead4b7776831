/** Limits of one deploy: files, bytes in all, bytes of the largest file (docs/hosting.md). */
export interface DeployLimits {
  readonly files: number;
  readonly bytes: number;
  readonly fileBytes: number;
}

export const defaultDeployLimits: DeployLimits = { files: 20_000, bytes: 1024 ** 3, fileBytes: 100 * 1024 ** 2 };
