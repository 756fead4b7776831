import { defineConfig } from 'vitest/config';
import { defaultServerConditions } from 'vite';

// Workspace packages resolve to their TypeScript sources ("source" export condition), so
// tests never run against a stale build. Integration tests that spawn the real `svc`
// binary use dist/, which `npm test` builds first.
const conditions = ['source', ...defaultServerConditions];

const backendSuites = ['packages/*/test/backend/**/*.test.ts', 'reliability/backend/**/*.test.ts'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['packages/*/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['packages/*/test/**/*.test.ts', 'reliability/**/*.test.ts'],
          exclude: [...backendSuites, '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: { name: 'sqlite', include: backendSuites, env: { SVC_TEST_BACKEND: 'sqlite' } },
      },
      {
        extends: true,
        test: { name: 'postgres', include: backendSuites, env: { SVC_TEST_BACKEND: 'postgres' } },
      },
    ],
  },
});
