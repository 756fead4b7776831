import type { Account } from '../../operations/account.js';
import { Cell, DataTable, Notice } from './components.js';
import { Shell, type PageFrame } from './layout.js';

/** `/settings/account`: the signed-in person's name and workspaces (docs/members.md). */
export function AccountPage(props: { frame: PageFrame; account: Account; notice?: string; error?: string }) {
  const { account } = props;
  return (
    <Shell frame={props.frame} title="Your account" crumbs={[{ label: 'Projects', href: '/settings' }, { label: 'Account' }]}>
      <div class="page-head">
        <div>
          <h1>Your account</h1>
          <p class="lead breakable">
            Signed in as {account.name} ({account.email}).
          </p>
        </div>
      </div>
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      <section class="card" aria-labelledby="name-title">
        <h2 id="name-title">Your name</h2>
        <p class="small muted">Clients see it on your replies, and your team on what you did. Leave it empty to show the part of your email before @.</p>
        <form method="post" action="/settings/account">
          <input type="hidden" name="_csrf" value={props.frame.csrfToken ?? ''} />
          <div class="field">
            <label for="name">Name</label>
            <input id="name" name="name" type="text" maxLength={100} value={account.nameSet ?? ''} autocomplete="name" />
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
          <DataTable headers={['Workspace', 'Role', '']}>
            {account.workspaces.map((entry) => (
              <tr key={entry.workspace}>
                <Cell>{entry.workspace}</Cell>
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
