import { WidgetApiError, type SentRequest, type Thread, type WidgetApi } from './api.js';
import { h } from './dom.js';
import type { Environment } from './environment.js';
import { pickElement } from './picker.js';
import type { SentRequests } from './sent-requests.js';
import { widgetStyles } from './styles.js';

export interface PanelOptions {
  readonly api: WidgetApi;
  readonly sent: SentRequests;
  readonly environment: Environment | null;
  readonly redact: readonly string[];
  /** Loads the screenshot code (first use only) and takes the picture. */
  readonly capture: (redact: readonly string[], exclude: Element) => Promise<Blob>;
}

/** The server's limits (docs/pinpoints.md), checked here too so the visitor hears at once. */
const maxComment = 5000;

/** Mounts the Feedback button and its panel in a shadow root of their own. */
export function mountPanel(options: PanelOptions): void {
  const host = h('div', { 'data-pinpoints-widget': '' });
  const root = host.attachShadow({ mode: 'open' });
  let selector: string | null = null;
  /** The element pointed at: its box on the screenshot is measured when the picture is taken. */
  let picked: Element | null = null;

  const launcher = h('button', { type: 'button', class: 'launcher', 'aria-expanded': 'false', 'aria-controls': 'pinpoints-panel' }, 'Feedback');
  const comment = h('textarea', { id: 'pinpoints-comment', name: 'comment', maxlength: String(maxComment), required: true, 'aria-describedby': 'pinpoints-comment-error' });
  const name = h('input', { id: 'pinpoints-name', name: 'name', autocomplete: 'name', maxlength: '200' });
  const email = h('input', { id: 'pinpoints-email', name: 'email', type: 'email', autocomplete: 'email', maxlength: '254', 'aria-describedby': 'pinpoints-email-error' });
  const commentError = h('div', { id: 'pinpoints-comment-error', class: 'error' });
  const emailError = h('div', { id: 'pinpoints-email-error', class: 'error' });
  const pointButton = h('button', { type: 'button', class: 'secondary' }, 'Point at an element');
  const clearButton = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Clear element');
  const elementNote = h('div', { class: 'element', hidden: true });
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send');
  const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const threads = h('section', { 'aria-labelledby': 'pinpoints-threads', hidden: true });
  const form = h(
    'form',
    { novalidate: true },
    h('label', { for: 'pinpoints-comment' }, 'Comment'),
    comment,
    commentError,
    h('div', { class: 'row' }, pointButton, clearButton),
    elementNote,
    h('label', { for: 'pinpoints-name' }, 'Name ', h('span', { class: 'optional' }, '(optional)')),
    name,
    h('label', { for: 'pinpoints-email' }, 'Email ', h('span', { class: 'optional' }, '(optional)')),
    email,
    emailError,
    h('div', { class: 'row' }, send, close),
    status,
  );
  const panel = h('div', { id: 'pinpoints-panel', class: 'panel', role: 'dialog', 'aria-labelledby': 'pinpoints-title', hidden: true }, h('h2', { id: 'pinpoints-title' }, 'Send feedback'), form, threads);
  const highlight = h('div', { class: 'highlight', hidden: true });
  const hint = h('div', { class: 'hint', hidden: true }, 'Click the element you mean, or Tab to it and press Enter. Escape cancels.');
  root.append(h('style', {}, widgetStyles), launcher, panel, highlight, hint);

  const say = (text: string, tone: 'ok' | 'bad' | '' = ''): void => {
    status.textContent = text;
    status.className = `status ${tone}`;
  };
  const open = (visible: boolean): void => {
    panel.hidden = !visible;
    launcher.setAttribute('aria-expanded', String(visible));
    if (visible) {
      comment.focus();
      void showThreads();
    }
  };
  const showElement = (): void => {
    elementNote.hidden = selector === null;
    clearButton.hidden = selector === null;
    elementNote.replaceChildren(...(selector === null ? [] : ['Element: ', h('code', {}, selector)]));
  };

  const showThreads = async (): Promise<void> => {
    const sent = options.sent.list();
    if (sent.length === 0) return;
    const loaded: Thread[] = [];
    for (const request of sent) {
      try {
        const thread = await options.api.thread(request);
        if (thread === null) options.sent.forget(request.id);
        else loaded.push(thread);
      } catch {
        // Unreachable now: shown next time.
      }
    }
    threads.hidden = loaded.length === 0;
    threads.replaceChildren(h('h3', { id: 'pinpoints-threads' }, 'Your earlier feedback'), ...loaded.map(threadView));
  };

  launcher.addEventListener('click', () => open(panel.hidden));
  close.addEventListener('click', () => {
    open(false);
    launcher.focus();
  });
  root.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Escape' && !panel.hidden) {
      open(false);
      launcher.focus();
    }
  });
  pointButton.addEventListener('click', () => {
    panel.hidden = true;
    void pickElement({
      host,
      highlight: (box) => {
        highlight.hidden = box === null;
        if (box !== null) Object.assign(highlight.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` });
      },
      hint: (visible) => {
        hint.hidden = !visible;
      },
    }).then((chosen) => {
      if (chosen !== null) {
        selector = chosen.selector;
        picked = chosen.element;
      }
      showElement();
      panel.hidden = false;
      pointButton.focus();
    });
  });
  clearButton.addEventListener('click', () => {
    selector = null;
    picked = null;
    showElement();
    pointButton.focus();
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });

  const submit = async (): Promise<void> => {
    commentError.textContent = '';
    emailError.textContent = '';
    const text = comment.value.trim();
    if (text === '') {
      commentError.textContent = 'Please write what you noticed.';
      comment.focus();
      return;
    }
    send.disabled = true;
    try {
      say('Taking a screenshot…');
      let screenshot: Blob | null = null;
      let captureProblem: string | null = null;
      // Measured just before the picture, in the same frame: the viewport.
      const box = picked === null ? null : elementBox(picked);
      try {
        screenshot = await options.capture(options.redact, host);
      } catch (error) {
        captureProblem = error instanceof Error ? error.message : String(error);
      }
      say('Sending…');
      const body = new FormData();
      body.set('comment', text);
      body.set('url', location.href);
      if (selector !== null) body.set('selector', selector);
      if (options.environment !== null) body.set('environment', options.environment);
      if (name.value.trim() !== '') body.set('name', name.value.trim());
      if (email.value.trim() !== '') body.set('email', email.value.trim());
      body.set('viewport', `${window.innerWidth}x${window.innerHeight}`);
      if (box !== null) body.set('elementBox', box);
      if (screenshot !== null) body.set('screenshot', screenshot, 'screenshot.png');
      else body.set('screenshotError', (captureProblem ?? 'unknown').slice(0, 200));
      let sent: SentRequest;
      try {
        sent = await options.api.send(body);
      } catch (error) {
        // A project whose stored uploads reached their quota still takes the words: sent again without the picture.
        if (screenshot === null || !(error instanceof WidgetApiError) || error.code !== 'quota_exceeded') throw error;
        screenshot = null;
        captureProblem = 'the site keeps no more screenshots just now';
        body.delete('screenshot');
        body.set('screenshotError', captureProblem);
        sent = await options.api.send(body);
      }
      options.sent.add(sent);
      form.reset();
      selector = null;
      picked = null;
      showElement();
      say(screenshot === null ? `Thanks! Your feedback was sent, without a screenshot (${captureProblem ?? 'it could not be taken'}).` : 'Thanks! Your feedback was sent.', 'ok');
      void showThreads();
    } catch (error) {
      if (error instanceof WidgetApiError) {
        if (error.fields['comment'] !== undefined) commentError.textContent = `Comment ${error.fields['comment']}.`;
        if (error.fields['email'] !== undefined) emailError.textContent = `Email ${error.fields['email']}.`;
        say(error.message, 'bad');
      } else {
        say('The feedback service is not reachable right now; please try again.', 'bad');
      }
    } finally {
      send.disabled = false;
    }
  };

  document.body.append(host);
}

/**
 * `X,Y,WIDTH,HEIGHT` of an element in CSS pixels of the viewport, the frame of the
 * screenshot (docs/pinpoints.md); null when it left the page or has no size.
 */
function elementBox(element: Element): string | null {
  if (!element.isConnected) return null;
  const rect = element.getBoundingClientRect();
  if (rect.width < 0.5 || rect.height < 0.5) return null;
  const clamp = (value: number) => Math.max(-999_999, Math.min(999_999, Math.round(value)));
  return [clamp(rect.left), clamp(rect.top), Math.max(1, clamp(rect.width)), Math.max(1, clamp(rect.height))].join(',');
}

function threadView(thread: Thread): HTMLElement {
  const excerpt = thread.comment.length > 140 ? `${thread.comment.slice(0, 140)}…` : thread.comment;
  return h(
    'article',
    { class: 'thread' },
    h('div', {}, excerpt, h('span', { class: `badge ${thread.status}` }, thread.status === 'resolved' ? 'Resolved' : 'Open')),
    h('div', { class: 'muted' }, `Sent ${new Date(thread.createdAt).toLocaleString()}`),
    ...thread.replies.map((reply) => h('div', { class: 'reply' }, h('div', { class: 'muted' }, `${reply.author} replied`), reply.message)),
  );
}
