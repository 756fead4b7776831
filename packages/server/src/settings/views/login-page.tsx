import type { ComponentChildren } from 'preact';
import type { LinkHolder } from '../../operations/sign-in-links.js';
import { Csrf, Notice } from './components.js';
import { Document, type PageFrame } from './layout.js';

/** The one centred card of the pages shown without a session: signing in, a link's page, errors. */
function CardPage(props: { frame: PageFrame; title: string; children: ComponentChildren }) {
  return (
    <Document frame={props.frame} title={props.title}>
      <main class="login" id="main">
        <div class="card">{props.children}</div>
      </main>
    </Document>
  );
}

function SignInButton() {
  return (
    <button type="submit" class="primary">
      Sign in
    </button>
  );
}

/** The one button a sign-in or invite link's page shows: it spends the link (a POST, so no preview or prefetch can). */
function SignInForm(props: { action: string; csrfToken: string }) {
  return (
    <form method="post" action={props.action}>
      <Csrf token={props.csrfToken} />
      <SignInButton />
    </form>
  );
}

export function LoginPage(props: { frame: PageFrame; next: string; error?: string; message?: string; emailSignIn?: boolean; email?: string }) {
  return (
    <CardPage frame={props.frame} title="Sign in">
      <h1>Sign in to svc</h1>
      <p class="muted">
        Paste a token made by <code>svc tokens create</code> or printed by the first <code>svc serve</code>, or run <code>svc open</code> for a one-time link.
      </p>
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      {props.message ? <Notice tone="ok">{props.message}</Notice> : null}
      <form method="post" action="/login">
        <input type="hidden" name="next" value={props.next} />
        <div class="field">
          <label for="token">Token</label>
          <input id="token" name="token" type="password" autocomplete="current-password" required autofocus spellcheck={false} />
        </div>
        <SignInButton />
      </form>
      {props.emailSignIn ? (
        <form method="post" action="/login/email" class="email-sign-in">
          <p class="muted">Or, if you are a member of a workspace, have a sign-in link emailed to you.</p>
          <div class="field">
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autocomplete="email" required maxLength={254} spellcheck={false} value={props.email ?? ''} />
          </div>
          <button type="submit">Email me a sign-in link</button>
        </form>
      ) : null}
    </CardPage>
  );
}

/** The answer to "email me a link": the same whether or not the address belongs to a member. */
export function EmailSentPage(props: { frame: PageFrame; email: string }) {
  return (
    <CardPage frame={props.frame} title="Check your email">
      <h1>Check your email</h1>
      <p>
        If <strong>{props.email}</strong> belongs to a member, a sign-in link is on its way. It works once, for 15 minutes.
      </p>
      <p class="muted">Nothing arrived? Check the spam folder, or ask an owner of your workspace to invite you again.</p>
      <a class="button" href="/login">
        Back to sign in
      </a>
    </CardPage>
  );
}

type LinkPageProps<H> = { frame: PageFrame; action: string; csrfToken: string; holder: H };

/** What opening a one-time link shows: who would sign in, and the one button that does it. */
export function LinkPage(props: LinkPageProps<LinkHolder>) {
  const { holder } = props;
  return holder.purpose === 'open' ? <TokenLinkPage {...props} holder={holder} /> : <PersonLinkPage {...props} holder={holder} />;
}

function PersonLinkPage(props: LinkPageProps<Extract<LinkHolder, { purpose: 'invite' | 'email' }>>) {
  const { name, email, workspace, reach } = props.holder;
  return (
    <CardPage frame={props.frame} title="Sign in">
      <h1>Sign in to svc</h1>
      <p>
        You are signing in as <strong>{name}</strong> ({email})
        {workspace === null ? '.' : (
          <>
            {', '}joining the workspace <strong>{workspace}</strong>.
          </>
        )}
      </p>
      {reach === 'workspace' && workspace !== null ? (
        <p>
          This link signs you in to <strong>{workspace}</strong> only. To see every workspace you belong to, sign in with a link emailed to you.
        </p>
      ) : null}
      <p class="muted">
        {workspace === null ? 'This link was emailed to you and works once, for 15 minutes.' : 'This invitation works once, for 7 days.'} If you did not ask for it, close this page.
      </p>
      <SignInForm action={props.action} csrfToken={props.csrfToken} />
    </CardPage>
  );
}

function TokenLinkPage(props: LinkPageProps<Extract<LinkHolder, { purpose: 'open' }>>) {
  const { tokenName, workspace } = props.holder;
  return (
    <CardPage frame={props.frame} title="Sign in">
      <h1>Sign in to svc</h1>
      <p>
        You are signing in as <strong>{tokenName}</strong>,{' '}
        {workspace === null ? (
          <>an admin token: every workspace, and the tokens.</>
        ) : (
          <>
            a token of the workspace <strong>{workspace}</strong>.
          </>
        )}
      </p>
      <p class="muted">
        This link was made by <code>svc open</code> and works once, for 5 minutes. If you did not ask for it, close this page.
      </p>
      <SignInForm action={props.action} csrfToken={props.csrfToken} />
    </CardPage>
  );
}

/** An error page for people: what went wrong, and where to go from here. */
export function ErrorPage(props: { frame: PageFrame; status: number; title: string; message: string; signedIn: boolean }) {
  return (
    <CardPage frame={props.frame} title={props.title}>
      <p class="muted">Error {props.status}</p>
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      <a class="button" href={props.signedIn ? '/settings' : '/login'}>
        {props.signedIn ? 'Back to your projects' : 'Sign in'}
      </a>
    </CardPage>
  );
}
