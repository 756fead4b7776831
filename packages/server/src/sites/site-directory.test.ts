import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/open-store.js';
import { replaceProjectDomains } from '../store/queries/domains.js';
import { ensureWorkspace, insertProject } from '../store/queries/projects.js';
import type { Store } from '../store/store.js';
import { SiteDirectory } from './site-directory.js';

let dataDir: string;
let store: Store;
let projectId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-site-directory-'));
  store = await openStore({ dataDir });
  const workspace = await ensureWorkspace(store.db, 'agency');
  projectId = (await insertProject(store.db, { workspaceId: workspace.id, name: 'site', framework: 'static', environments: { production: { branch: 'main' } }, pinpoints: {}, auto: {} })).id;
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The store, with its queries counted and their answers held back until `gate` resolves. */
function watchedStore(gate: Promise<void> = Promise.resolve()): { store: Store; lookups: () => number } {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      count += 1;
      return args.node;
    },
    transformResult: async (args) => {
      await gate;
      return args.result;
    },
  };
  return { store: { ...store, db: store.db.withPlugin(plugin) }, lookups: () => count };
}

describe('the hostnames held by hosting', () => {
  it('answers a hostname again without a query until a change is announced, then reads it afresh', async () => {
    await replaceProjectDomains(store.db, projectId, [{ hostname: 'www.held.test', environment: 'production', position: 0 }]);
    const { store: counted, lookups } = watchedStore();
    const sites = new SiteDirectory(counted, 'localhost');
    try {
      expect(await sites.resolve('www.held.test')).toEqual({ projectId, environment: 'production', deployId: null, preview: false });
      expect(await sites.resolve('nowhere.test')).toBeNull();
      const afterFirst = lookups();
      expect(await sites.resolve('www.held.test')).toMatchObject({ environment: 'production' });
      expect(await sites.resolve('nowhere.test')).toBeNull();
      expect(lookups()).toBe(afterFirst);

      await replaceProjectDomains(store.db, projectId, [{ hostname: 'nowhere.test', environment: 'production', position: 0 }]);
      store.signals.sites.announce();
      expect(await sites.resolve('www.held.test')).toBeNull();
      expect(await sites.resolve('nowhere.test')).toMatchObject({ projectId });
    } finally {
      sites.close();
    }
  });

  it('does not hold what a lookup read before a change that was announced while it ran', async () => {
    await replaceProjectDomains(store.db, projectId, [{ hostname: 'www.race.test', environment: 'production', position: 0 }]);
    let release = (): void => undefined;
    const { store: gated, lookups } = watchedStore(new Promise((resolve) => (release = resolve)));
    const sites = new SiteDirectory(gated, 'localhost');
    try {
      const during = sites.resolve('www.race.test');
      // A change is committed and announced while the lookup's answer is on its way.
      store.signals.sites.announce();
      release();
      expect(await during).toMatchObject({ projectId });
      const before = lookups();
      await sites.resolve('www.race.test');
      expect(lookups()).toBe(before + 1);
    } finally {
      sites.close();
    }
  });
});
