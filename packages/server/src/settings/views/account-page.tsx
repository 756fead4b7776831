import type { Account } from '../../operations/account.js';
import { Breakable, Cell, DataTable, Notice } from './components.js';
import { Shell, type PageFrame } from './layout.js';

/** `/settings/account`: the signed-in person's name in their workspaces (docs/members.md). */
export function AccountPage(props: { frame: PageFrame; account: Account; notice?: string; error?: string }) {
  const { account } = props;
  const only = account.workspaces.length === 1 ? account.workspaces[0]?.workspace : undefined;
  return (
    <Shell frame={props.frame} title="Your account" crumbs={[{ label: 'Projects', href: '/settings' }, { label: 'Account' }]}>
      <div class="page-head">
        <div>
          <h1>Your account</h1>
          <p class="lead">
            Signed in as <Breakable text={account.email} />.
          </p>
        </div>
      </div>
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      {account.limited ? (
        <Notice tone="warn">
          This session began with the invitation link shown to whoever invited you, so it sees {only === undefined ? 'one workspace' : <strong>{only}</strong>} only. Sign in with a link emailed to you to see every workspace you belong to.
        </Notice>
      ) : null}
      <section class="card" aria-labelledby="name-title">
        <h2 id="name-title">Your name</h2>
        <p class="small muted">
          Clients see it on your replies, and your team on what you did. It is set in {account.workspaces.length > 1 ? 'each workspace below' : 'your workspace'}
          {account.namesDiffer ? ', where your names differ today' : ''}. Leave it empty to show the part of your email before @.
        </p>
        <form method="post" action="/settings/account">
          <input type="hidden" name="_csrf" value={props.frame.csrfToken ?? ''} />
          <div class="field">
            <label for="name">Name</label>
            <input id="name" name="name" type="text" maxLength={100} value={account.name ?? ''} autocomplete="name" />
          </div>
          <button type="submit" class="primary">
            Save
          </button>
        </form>
      </section>
      <section class="card" aria-labelledby="workspaces-title">
        <h2 id="workspaces-title">Your workspaces</h2>
        {account.workspaces.length === 0 ? (
          <p class="muted">You are not a member of any workspace any more.</p>
        ) : (
          <DataTable headers={['Workspace', 'Your name there', 'Role', '']}>
            {account.workspaces.map((entry) => (
              <tr key={entry.workspace}>
                <Cell>
                  <Breakable text={entry.workspace} />
                </Cell>
                <Cell label="Your name there">
                  <Breakable text={entry.name} />
                </Cell>
                <Cell label="Role">{entry.role === 'owner' ? 'Owner' : 'Member'}</Cell>
                <td class="actions">
                  <a href={`/settings/${encodeURIComponent(entry.workspace)}/members`}>Members</a>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </Shell>
  );
}
