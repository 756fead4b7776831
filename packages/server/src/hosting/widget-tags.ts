import { HeldUntilAnnounced } from '../lib/held-until-announced.js';
import { enabledEnvironments, pinpointsEnvironments, widgetSettings } from '../pinpoints/widget-settings.js';
import { widgetSnippet } from '../pinpoints/widget-snippet.js';
import { ensureWidgetKey, findProjectById } from '../store/queries/projects.js';
import type { Store } from '../store/store.js';

/** What the tags need: the store, and the base URL the widget's script is served from (known once the server listens). */
export interface WidgetTagServices {
  readonly store: Pick<Store, 'db' | 'signals'>;
  readonly urls: { readonly baseUrl: string };
}

/**
 * The Pinpoints tag of a project's environment (null where the widget is off), held until a
 * push changes the project (the same announcement as hostnames, docs/hosting.md), and for
 * 2 s only while announcements from other instances could go unheard.
 */
export class WidgetTags {
  private readonly held: HeldUntilAnnounced<Map<string, string | null>>;

  constructor(private readonly context: WidgetTagServices) {
    this.held = new HeldUntilAnnounced(context.store.signals.sites, { maxEntries: 1_000, maxAgeMs: 60_000, unheardMaxAgeMs: 2_000 });
  }

  async tagFor(projectId: string, environment: string): Promise<string | null> {
    const tags = await this.held.get(projectId, () => this.read(projectId));
    return tags.get(environment) ?? null;
  }

  close(): void {
    this.held.close();
  }

  private async read(projectId: string): Promise<Map<string, string | null>> {
    const project = await findProjectById(this.context.store.db, projectId);
    const settings = widgetSettings(project.pinpoints);
    const tags = new Map<string, string | null>();
    const key = enabledEnvironments(settings).length > 0 ? await ensureWidgetKey(this.context.store.db, project) : null;
    for (const environment of pinpointsEnvironments) {
      tags.set(environment, key !== null && settings[environment] ? widgetSnippet(this.context.urls.baseUrl, key, environment) : null);
    }
    return tags;
  }
}
