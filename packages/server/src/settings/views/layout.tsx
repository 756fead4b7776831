import type { ComponentChildren } from 'preact';
import { RenderedAt } from './components.js';

/** What every page needs from the request: asset URLs, the signed-in principal's CSRF token. */
export interface PageFrame {
  readonly cssPath: string;
  readonly jsPath: string;
  /** Present when signed in: the Sign out form and every state-changing form carry it. */
  readonly csrfToken?: string;
  /** An admin token's session. */
  readonly admin?: boolean;
  /** Sessions that manage tokens (admins, workspace tokens, owners) see the Tokens page in the top bar. */
  readonly tokens?: boolean;
  /** A person's session: the top bar links their account page. */
  readonly person?: boolean;
  /** When the page is rendered (epoch ms): times read relative to it. */
  readonly now: number;
}

export interface Crumb {
  readonly label: string;
  readonly href?: string;
}

export function Document(props: { frame: PageFrame; title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${props.title} · svc`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={props.frame.cssPath} />
        <script src={props.frame.jsPath} defer />
      </head>
      <body>
        <RenderedAt.Provider value={props.frame.now}>{props.children}</RenderedAt.Provider>
      </body>
    </html>
  );
}

/** A signed-in page: top bar with breadcrumbs and Sign out, optional project navigation. */
export function Shell(props: { frame: PageFrame; title: string; crumbs: readonly Crumb[]; nav?: ComponentChildren; children: ComponentChildren }) {
  const { frame } = props;
  return (
    <Document frame={frame} title={props.title}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/settings">
          <span class="brand-mark" aria-hidden="true">
            s
          </span>
          svc
        </a>
        <nav aria-label="Breadcrumb">
          <ol class="crumbs">
            {props.crumbs.map((crumb, index) => (
              <li key={index}>{crumb.href ? <a href={crumb.href}>{crumb.label}</a> : <span aria-current="page">{crumb.label}</span>}</li>
            ))}
          </ol>
        </nav>
        <div class="topbar-end">
          {frame.tokens ? <a href="/settings/tokens">Tokens</a> : null}
          {frame.person ? <a href="/settings/account">Account</a> : null}
          <form method="post" action="/logout" class="inline-form">
            <input type="hidden" name="_csrf" value={frame.csrfToken ?? ''} />
            <button type="submit">Sign out</button>
          </form>
        </div>
      </header>
      <div class={props.nav ? 'frame' : 'frame single'}>
        {props.nav}
        <main id="main">{props.children}</main>
      </div>
    </Document>
  );
}

export type ProjectSection = 'overview' | 'webhooks' | 'forms' | 'requests' | 'deploys';

/** The project's sections; Requests and Deploys arrive with Pinpoints and hosting. */
export function ProjectNav(props: { base: string; current: ProjectSection; forms: readonly { slug: string; name: string | null }[]; currentForm?: string }) {
  const link = (section: ProjectSection, href: string, label: string) => (
    <li>
      <a href={href} aria-current={props.current === section ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <nav class="sidenav" aria-label="Project">
      <ul>
        {link('overview', props.base, 'Overview')}
        {link('webhooks', `${props.base}/webhooks`, 'Webhooks')}
        {link('requests', `${props.base}/requests`, 'Requests')}
        {link('deploys', `${props.base}/deploys`, 'Deploys')}
      </ul>
      {props.forms.length > 0 ? (
        <>
          <h2>Forms</h2>
          <ul>
            {props.forms.map((form) => (
              <li key={form.slug}>
                <a href={`${props.base}/forms/${encodeURIComponent(form.slug)}`} aria-current={props.currentForm === form.slug ? 'page' : undefined}>
                  {form.name ?? form.slug}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </nav>
  );
}
