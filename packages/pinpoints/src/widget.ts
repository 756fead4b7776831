// The Pinpoints widget: the script a project's pages load from `{base_url}/pinpoints.js`
// (docs/pinpoints.md). It must never break its page: every failure stays in here.
import { WidgetApi } from './api.js';
import { taggedEnvironment } from './environment.js';
import { mountPanel } from './panel.js';
import { SentRequests } from './sent-requests.js';

/** The screenshot module's file name, content-hashed at build time (build.js). */
declare const PINPOINTS_CAPTURE_FILE: string;
/** The server's largest screenshot, in bytes. */
const maxScreenshotBytes = 5 * 1024 * 1024;

interface CaptureModule {
  captureViewport(options: { redact: readonly string[]; exclude: Element; maxBytes: number }): Promise<Blob>;
}

async function start(script: HTMLScriptElement): Promise<void> {
  const key = script.dataset['key'];
  if (key === undefined || key === '') return warn('the script tag has no data-key');
  const source = new URL(script.src);
  const api = new WidgetApi(source.origin, key);
  const environment = taggedEnvironment(script);
  const settings = await api.settings(environment, location.hostname);
  if (!settings.enabled) return;
  const captureUrl = new URL(PINPOINTS_CAPTURE_FILE, source).href;
  let capture: Promise<CaptureModule> | null = null;
  const mount = (): void =>
    mountPanel({
      api,
      sent: new SentRequests(key),
      environment,
      redact: settings.redact,
      capture: async (redact, exclude) => {
        capture ??= import(/* @vite-ignore */ captureUrl) as Promise<CaptureModule>;
        return (await capture).captureViewport({ redact, exclude, maxBytes: maxScreenshotBytes });
      },
    });
  if (document.body === null) document.addEventListener('DOMContentLoaded', mount, { once: true });
  else mount();
}

function warn(message: string): void {
  // The page's developer is the one to see this; the visitor sees nothing.
  // eslint-disable-next-line no-console -- the only channel to the developer of the page
  console.warn(`[pinpoints] ${message}`);
}

const marker = Symbol.for('svc.pinpoints');
const globals = window as unknown as Record<symbol, boolean>;
const script = document.currentScript;
if (!globals[marker] && script instanceof HTMLScriptElement) {
  globals[marker] = true;
  start(script).catch((error: unknown) => warn(`not started: ${error instanceof Error ? error.message : String(error)}`));
}
