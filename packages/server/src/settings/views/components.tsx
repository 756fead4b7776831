import { createContext, Fragment, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { exactTime, relativeTime } from './time-text.js';

/** The moment the page is rendered: times are shown relative to it (set by the Shell). */
export const RenderedAt = createContext<number | null>(null);

export function Csrf(props: { token: string | undefined }) {
  return <input type="hidden" name="_csrf" value={props.token ?? ''} />;
}

/** A button that posts to `action` with the CSRF token: every state change is a POST. */
export function PostButton(props: { action: string; csrf: string | undefined; label: string; kind?: 'primary' | 'danger'; confirm?: string; fields?: Record<string, string> }) {
  return (
    <form method="post" action={props.action} class="inline-form" data-confirm={props.confirm}>
      <Csrf token={props.csrf} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.kind}>
        {props.label}
      </button>
    </form>
  );
}

/** The submit row that ends a settings form. */
export function SaveSettingsButton() {
  return (
    <div>
      <button type="submit" class="primary">
        Save settings
      </button>
    </div>
  );
}

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

/** A labelled text input with its hint (`aria-describedby`), as the settings forms lay them out. */
export function TextField(props: { id: string; name: string; label: string; url?: boolean; value: string; placeholder: string; spellcheck?: boolean; children: ComponentChildren }) {
  const named = { id: props.id, name: props.name };
  const rest = { value: props.value, placeholder: props.placeholder, 'aria-describedby': `${props.id}-hint`, spellcheck: props.spellcheck };
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.url ? <input {...named} type="url" {...rest} /> : <input {...named} type="text" {...rest} />}
      <p id={`${props.id}-hint`} class="hint">
        {props.children}
      </p>
    </div>
  );
}

export function Badge(props: { tone: Tone; children: ComponentChildren }) {
  return <span class={props.tone === 'neutral' ? 'badge' : `badge ${props.tone}`}>{props.children}</span>;
}

export function Empty(props: { title: string; children: ComponentChildren }) {
  return (
    <div class="empty">
      <strong>{props.title}</strong>
      {props.children}
    </div>
  );
}

export function Notice(props: { tone: 'ok' | 'bad' | 'warn'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.tone}`} role={props.tone === 'bad' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** A secret shown once, with a copy button (the button appears only with JavaScript). */
export function SecretOnce(props: { id: string; title: string; value: string; children?: ComponentChildren }) {
  return (
    <section class="notice secret" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <p>It is shown only this once. Copy it now and keep it somewhere safe.</p>
      {props.children}
      <div class="secret-value">
        <code id={props.id}>{props.value}</code>
        <button type="button" data-copy={props.id} hidden>
          Copy
        </button>
      </div>
    </section>
  );
}

/**
 * A time for people: relative to the page's moment ("5 min ago"), the exact time in UTC on
 * hover (`title`) and for machines and assistive technology (`datetime`).
 */
export function Time(props: { at: string | number | null; empty?: string }) {
  const now = useContext(RenderedAt) ?? Date.now();
  if (props.at === null) return <span class="muted">{props.empty ?? '—'}</span>;
  const at = new Date(props.at).getTime();
  return (
    <time class="nowrap" datetime={new Date(at).toISOString()} title={exactTime(at)}>
      {relativeTime(at, now)}
    </time>
  );
}

/**
 * Text that may hold URLs, hostnames, email addresses, selectors or ids longer than the
 * line: within a run of over 20 characters without a space, it may wrap after `/`, `.`,
 * `?`, `&`, `=`, `@`, `_`, `,` and `>` (and anywhere only where a part alone is wider than
 * the line, by the `url` class), never in the middle of a word when it can help it.
 */
export function Breakable(props: { text: string }) {
  const runs = props.text.split(/(\s+)/);
  return (
    <>
      {runs.map((run, runIndex) =>
        run.length <= 20 ? (
          run
        ) : (
          <Fragment key={runIndex}>
            {run.split(/(?<=[/.?&=@_,>])/).map((part, index) => (
              <Fragment key={index}>
                {index > 0 ? <wbr /> : null}
                {part}
              </Fragment>
            ))}
          </Fragment>
        ),
      )}
    </>
  );
}

export function Pager(props: { next: string | null; first: string | null; label: string }) {
  if (props.next === null && props.first === null) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      {props.first ? <a href={props.first}>← Newest</a> : <span />}
      {props.next ? <a href={props.next}>Older →</a> : <span class="muted small">No older entries</span>}
    </nav>
  );
}

/**
 * A table that stacks into cards on a phone; a header of '' is an actions column (named for
 * screen readers). Its cells are `Cell`s, which keep their column's name on a phone.
 */
export function DataTable(props: { headers: readonly string[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table class="stack">
        <thead>
          <tr>
            {props.headers.map((header, index) => (
              <th scope="col" key={index}>
                {header === '' ? <span class="visually-hidden">Actions</span> : header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/**
 * A cell of a DataTable. On a phone, where the header row is hidden, `label` (`data-label`)
 * is shown beside the value; the row's first cell (its title) and the actions have none.
 */
export function Cell(props: { label?: string; class?: string; children: ComponentChildren }) {
  return (
    <td data-label={props.label} class={props.class}>
      {props.children}
    </td>
  );
}
