import { createHash } from 'node:crypto';
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import type { ErrorCode, ServiceError } from '@svc/protocol';
import type { FormLimits } from './limits.js';

/**
 * The pages the form endpoint shows a person after a plain HTML post
 * (docs/form-endpoint.md): a thank-you page, or what went wrong in words. Self-contained:
 * one small style sheet, allowed by its hash; no script, nothing fetched.
 */
const style = `body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
main{max-width:34rem;margin:12vh auto 2rem;padding:2rem 2.25rem;background:#fff;border:1px solid #d9e2ec;border-radius:12px;box-shadow:0 1px 3px rgba(15,23,42,.06)}
h1{margin:0 0 .75rem;font-size:1.5rem;line-height:1.25}
p,ul{margin:0 0 1rem}li{margin:.25rem 0}code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:#f0f4f8;padding:.1em .3em;border-radius:4px}
a{color:#1d4ed8}a:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}.back{margin-top:1.5rem}
@media (prefers-color-scheme:dark){body{background:#0f172a;color:#e2e8f0}main{background:#111827;border-color:#334155}code{background:#1e293b}a{color:#93c5fd}}`;

// Rendered as text, so it must hold nothing that escaping changes (its hash must match).
if (/[<>&"']/.test(style)) throw new Error('the style of the form endpoint\'s pages must not need escaping');

/** Headers of every page the endpoint shows a person. */
export const personPageHeaders: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; base-uri 'none'; form-action 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function Page(props: { title: string; back: string | null; keptByBack?: boolean; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <style>{style}</style>
      </head>
      <body>
        <main>
          <h1>{props.title}</h1>
          {props.children}
          {props.keptByBack ? <p>Your browser's Back button takes you to the form with what you typed still filled in.</p> : null}
          {props.back === null ? null : (
            <p class="back">
              <a href={props.back}>Back to the page you came from</a>
            </p>
          )}
        </main>
      </body>
    </html>
  );
}

export function thankYouPage(formName: string, back: string | null): string {
  return document(
    <Page title="Thank you" back={back}>
      <p>Your message to {formName} was sent.</p>
    </Page>,
  );
}

/** What went wrong, in words, for the person who sent the form (and whoever built it). */
export function errorPage(failure: ServiceError, limits: FormLimits, back: string | null): string {
  const { title, body } = explain(failure, limits);
  return document(
    <Page title={title} back={back} keptByBack>
      {body}
    </Page>,
  );
}

type Explanation = { title: string; body: ComponentChildren };

const unreadable = (): Explanation => ({
  title: 'The form could not be read',
  body: <p>What arrived was not a complete form, so nothing was saved. Please go back and send it again.</p>,
});

/** The failures a person can meet after a post; anything else is "something went wrong". */
const explanations: Partial<Record<ErrorCode, (failure: ServiceError, limits: FormLimits) => Explanation>> = {
  validation_failed: (failure) => {
    const errors = Object.entries((failure.details?.['errors'] ?? {}) as Record<string, string>);
    return {
      title: 'Please check the form',
      body: (
        <>
          <p>Nothing was sent yet. {errors.length === 1 ? 'One field needs' : 'These fields need'} another look:</p>
          <ul>
            {errors.map(([field, problem]) => (
              <li key={field}>
                <strong>{field}</strong> {problem}.
              </li>
            ))}
          </ul>
        </>
      ),
    };
  },
  rate_limited: (failure) => {
    const seconds = typeof failure.details?.['retryAfter'] === 'number' ? failure.details['retryAfter'] : 60;
    return {
      title: 'Too many submissions',
      body: <p>This form has received too many submissions from your address. Please wait {waitInWords(seconds)} and send it again.</p>,
    };
  },
  unavailable: (failure) => {
    const seconds = typeof failure.details?.['retryAfter'] === 'number' ? failure.details['retryAfter'] : 60;
    return {
      title: 'The form could not be saved just now',
      body: <p>The service that keeps these forms is briefly unable to store anything, so nothing was saved. Please wait {waitInWords(seconds)}, then go back and send it again.</p>,
    };
  },
  unsupported_media_type: () => ({
    title: 'This form cannot be sent as it is',
    body: (
      <>
        <p>The form was sent in a format this address does not take, so nothing was saved.</p>
        <p>
          To whoever built the page: give the <code>&lt;form&gt;</code> element <code>method="post"</code> and either no <code>enctype</code> or{' '}
          <code>enctype="multipart/form-data"</code> (which a form with files needs); <code>enctype="text/plain"</code> is not taken.
        </p>
      </>
    ),
  }),
  payload_too_large: (_failure, limits) => ({
    title: 'What you sent is too large',
    body: (
      <p>
        A submission may carry at most {limits.files} files of {mebibytes(limits.fileBytes)} each, {mebibytes(limits.multipartBytes)} in all, and{' '}
        {limits.fields} fields. Please send less and try again.
      </p>
    ),
  }),
  quota_exceeded: () => ({
    title: 'This form cannot take files just now',
    body: (
      <>
        <p>The space this site keeps for files sent through its forms is full, so nothing was saved.</p>
        <p>Please send the form without files, or let the site's owner know.</p>
      </>
    ),
  }),
  not_found: () => ({
    title: 'This form does not exist',
    body: (
      <>
        <p>Nothing receives submissions at this address, so nothing was saved.</p>
        <p>
          To whoever built the page: check the form's <code>action</code> address (<code>svc forms list</code> shows each form's URL).
        </p>
      </>
    ),
  }),
  method_not_allowed: () => ({ title: 'This address receives forms', body: <p>Open the page the form is on, fill it in and send it from there.</p> }),
  invalid_body: unreadable,
  invalid_idempotency_key: unreadable,
};

function explain(failure: ServiceError, limits: FormLimits): Explanation {
  const explanation = explanations[failure.code];
  if (explanation) return explanation(failure, limits);
  return { title: 'Something went wrong', body: <p>Your submission could not be saved because of a problem on our side. Please try again in a moment.</p> };
}

function document(page: ReturnType<typeof Page>): string {
  return `<!doctype html>${render(page)}`;
}

function waitInWords(seconds: number): string {
  if (seconds < 90) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `about ${minutes} minutes`;
  return `about ${Math.ceil(minutes / 60)} hours`;
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}
