import type { ComponentChildren } from 'preact';

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

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

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

export function Notice(props: { tone: 'ok' | 'bad'; children: ComponentChildren }) {
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

/** A time as text for people, in UTC, with the exact ISO value in the `datetime`. */
export function Time(props: { at: string | number | null; empty?: string }) {
  if (props.at === null) return <span class="muted">{props.empty ?? '—'}</span>;
  const date = new Date(props.at);
  const text = date.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  return <time datetime={date.toISOString()}>{text}</time>;
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

/** A table that stacks into cards on a phone; a header of '' is an actions column (named for screen readers). */
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
