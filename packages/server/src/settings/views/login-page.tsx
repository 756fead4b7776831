import { Notice } from './components.js';
import { Document, type PageFrame } from './layout.js';

export function LoginPage(props: { frame: PageFrame; next: string; error?: string; message?: string }) {
  return (
    <Document frame={props.frame} title="Sign in">
      <main class="login" id="main">
        <div class="card">
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
            <button type="submit" class="primary">
              Sign in
            </button>
          </form>
        </div>
      </main>
    </Document>
  );
}

/** An error page for people: what went wrong, and where to go from here. */
export function ErrorPage(props: { frame: PageFrame; status: number; title: string; message: string; signedIn: boolean }) {
  return (
    <Document frame={props.frame} title={props.title}>
      <main class="login" id="main">
        <div class="card">
          <p class="muted">Error {props.status}</p>
          <h1>{props.title}</h1>
          <p>{props.message}</p>
          <a class="button" href={props.signedIn ? '/settings' : '/login'}>
            {props.signedIn ? 'Back to your projects' : 'Sign in'}
          </a>
        </div>
      </main>
    </Document>
  );
}
