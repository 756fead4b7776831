import type { TokenInfo } from '@svc/protocol/api';
import { Badge, Cell, DataTable, Empty, Notice, PostButton, SecretOnce, Time } from './components.js';
import { Shell, type PageFrame } from './layout.js';

/** What the create form was sent with, shown again when it is refused. */
export interface TokenFormValues {
  readonly name?: string | undefined;
  readonly workspace?: string | undefined;
  readonly admin?: boolean;
}

export function TokensPage(props: {
  frame: PageFrame;
  tokens: readonly TokenInfo[];
  /** Every workspace a token may be scoped to. */
  workspaces: readonly string[];
  created?: { name: string; secret: string };
  notice?: string;
  error?: string;
  values?: TokenFormValues;
}) {
  const csrf = props.frame.csrfToken;
  const values = props.values ?? {};
  return (
    <Shell frame={props.frame} title="Tokens" crumbs={[{ label: 'Projects', href: '/settings' }, { label: 'Tokens' }]}>
      <div class="page-head">
        <div>
          <h1>Tokens</h1>
          <p class="lead">Tokens sign in here and authenticate the CLI. An admin token sees every workspace; a workspace token only its own.</p>
        </div>
      </div>
      {props.created ? (
        <SecretOnce id="new-token" title={`Token created: ${props.created.name}`} value={props.created.secret}>
          <p class="small">
            Use it with <code>svc login --token …</code> or as <code>SVC_TOKEN</code> in CI.
          </p>
        </SecretOnce>
      ) : null}
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      <section class="card" aria-labelledby="tokens-title">
        <h2 id="tokens-title">{props.frame.admin ? 'All tokens' : 'Tokens of your workspaces'}</h2>
        {props.tokens.length === 0 ? (
          <Empty title="No tokens">
            <p>Create one below.</p>
          </Empty>
        ) : (
          <DataTable headers={['Name', 'Scope', 'Created', 'Last used', '']}>
            {props.tokens.map((token) => (
              <tr key={token.id}>
                <Cell>
                  {token.name}
                  <div class="muted small mono nowrap">{token.id}</div>
                </Cell>
                <Cell label="Scope">{token.workspace === null ? <Badge tone="warn">Admin</Badge> : <span>Workspace {token.workspace}</span>}</Cell>
                <Cell label="Created" class="small">
                  <Time at={token.createdAt} />
                </Cell>
                <Cell label="Last used" class="small">
                  <Time at={token.lastUsedAt} empty="Never" />
                </Cell>
                <td class="actions">
                  {token.revokedAt === null ? (
                    <PostButton action={`/settings/tokens/${encodeURIComponent(token.id)}/revoke`} csrf={csrf} label="Revoke" kind="danger" confirm={`Revoke "${token.name}"? Everything using it stops working at once.`} />
                  ) : (
                    <Badge tone="neutral">Revoked</Badge>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">Create a token</h2>
        <form method="post" action="/settings/tokens">
          <input type="hidden" name="_csrf" value={csrf ?? ''} />
          <div class="form-row">
            <div class="field">
              <label for="name">Name</label>
              <input id="name" name="name" type="text" maxLength={100} placeholder="CI deploys" value={values.name ?? ''} />
            </div>
            <div class="field">
              <label for="workspace">Workspace</label>
              <select id="workspace" name="workspace" aria-describedby="workspace-hint">
                <option value="">Choose a workspace</option>
                {props.workspaces.map((slug) => (
                  <option key={slug} value={slug} selected={values.workspace === slug}>
                    {slug}
                  </option>
                ))}
              </select>
              <p class="hint" id="workspace-hint">
                {props.workspaces.length === 0 ? (
                  <>
                    No workspace yet: <code>svc init</code> creates one with its first project.
                  </>
                ) : (
                  'The token sees and changes only this workspace.'
                )}
              </p>
            </div>
          </div>
          {props.frame.admin ? (
            <div class="field">
              <label class="check" for="admin">
                <input type="checkbox" id="admin" name="admin" value="yes" checked={values.admin === true} aria-describedby="admin-hint" />
                Admin
              </label>
              <p class="hint" id="admin-hint">
                Instead of a workspace: every workspace, and managing tokens. Keep admin tokens for the people who run the service.
              </p>
            </div>
          ) : null}
          <button type="submit" class="primary">
            Create token
          </button>
        </form>
      </section>
    </Shell>
  );
}
