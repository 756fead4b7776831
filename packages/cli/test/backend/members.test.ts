// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve` and a real SMTP server: build first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, type MailServer, PageSession, request, selectBackend, startCliTestServer, startMailServer } from '@svc/testkit';

const backend = await selectBackend();

interface Member {
  id: string;
  email: string;
  name: string;
  workspace: string;
  role: string;
  status: string;
}

/** The sign-in link in an email (its text part may be quoted-printable, with soft line breaks). */
function linkIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '');
  const link = /https?:\/\/[^\s"<>]+\/login\/(?:invite|email)\/[0-9a-z]+/.exec(text)?.[0];
  if (!link) throw new Error(`no sign-in link in\n${raw}`);
  return link;
}

// Each step runs the real binary several times; on a busy machine that takes a while.
describe.runIf(backend.available)(`members, invites and sign-in by email on ${backend.name}`, { timeout: 120_000 }, () => {
  let mail: MailServer;
  let cli: CliTestServer;

  const invite = async (email: string, ...flags: string[]) => cli.svc(['members', 'invite', email, '--workspace', 'acme', ...flags, '--json']);
  const members = async (workspace = 'acme') => (await cli.svc(['members', 'list', '--workspace', workspace, '--json'])).json<{ members: Member[] }>().members;
  /** Signs a new browser-like client in with a link: the client, and the answer to the button's POST. */
  const openLink = async (url: string) => {
    const session = new PageSession(cli.url);
    return { session, answer: await session.openSignInLink(url) };
  };

  beforeAll(async () => {
    mail = await startMailServer();
    cli = await startCliTestServer(['--smtp-url', mail.url, '--mail-from', 'svc@agency.example']);
    await createProject(cli, 'acme', 'site', { forms: [{ slug: 'contact' }] });
    await createProject(cli, 'other', 'site', {});
  });
  afterAll(async () => {
    await cli?.stop();
    await mail?.close();
  });

  let sam: Member;
  let samInvite: string;
  let samShownInvite: string;
  let samSession: PageSession;

  it('invites: the printed link and the emailed one show who joins; the emailed one signs them in', async () => {
    const invited = await invite('Sam@Agency.example', '--name', 'Sam');
    expect(invited.code).toBe(0);
    const answer = invited.json<{ ok: true; member: Member; inviteUrl: string }>();
    expect(answer.member).toMatchObject({ email: 'sam@agency.example', name: 'Sam', workspace: 'acme', role: 'member', status: 'invited' });
    expect(answer.member.id).toMatch(/^mem_/);
    const [emailed] = await mail.waitFor(1);
    expect(emailed!.to).toEqual(['sam@agency.example']);
    // The inviter's link is not the one that reached the mailbox (docs/members.md).
    const emailedUrl = linkIn(emailed!.raw);
    expect(emailedUrl).not.toBe(answer.inviteUrl);

    const session = new PageSession(cli.url);
    const page = await session.get(new URL(answer.inviteUrl).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sam');
    expect(page.text).toContain('acme');
    expect(page.text).toContain('only');
    // Opening the links spent nothing: the emailed one still signs in.
    expect((await session.get(new URL(emailedUrl).pathname)).status).toBe(200);
    const { session: signedIn, answer: pressed } = await openLink(emailedUrl);
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe('/settings');
    const projects = await signedIn.get('/settings');
    expect(projects.status).toBe(200);
    expect(projects.text).toContain('/settings/acme/site');
    expect(projects.text).not.toContain('/settings/other/site');
    expect((await signedIn.get('/settings/other/site')).status).toBe(404);
    sam = (await members()).find((member) => member.email === 'sam@agency.example')!;
    expect(sam).toMatchObject({ status: 'active', name: 'Sam' });
    samSession = signedIn;
    samInvite = emailedUrl;
    samShownInvite = answer.inviteUrl;
  });

  it('an invite link works once, and spending one link of an invite spends the other', async () => {
    for (const url of [samInvite, samShownInvite]) {
      const again = await openLink(url);
      expect(again.answer.status).toBe(401);
      expect(again.session.signedIn).toBe(false);
    }
  });

  it('inviting an invited address again replaces the link; an active member is a conflict', async () => {
    const first = (await invite('lee@agency.example')).json<{ inviteUrl: string }>().inviteUrl;
    const second = (await invite('lee@agency.example', '--role', 'owner')).json<{ inviteUrl: string; member: Member }>();
    expect(second.inviteUrl).not.toBe(first);
    expect(second.member).toMatchObject({ role: 'owner', status: 'invited', name: 'lee' });
    expect((await openLink(first)).answer.status).toBe(401);
    expect((await openLink(second.inviteUrl)).answer.status).toBe(303);
    const conflict = await invite('lee@agency.example');
    expect(conflict.code).toBe(1);
    expect(conflict.json()).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await members()).filter((member) => member.email === 'lee@agency.example')).toHaveLength(1);
  });

  it('one person may be a member of several workspaces, and sees them all', async () => {
    const before = mail.mails.length;
    const shown = (await cli.svc(['members', 'invite', 'sam@agency.example', '--workspace', 'other', '--json'])).json<{ inviteUrl: string }>().inviteUrl;
    // Sam belongs to acme already: the link the inviter saw cannot add other to his account.
    expect((await openLink(shown)).answer.status).toBe(403);
    const { session } = await openLink(linkIn((await mail.waitForMailTo('sam@agency.example', before)).raw));
    const projects = await session.get('/settings');
    expect(projects.text).toContain('/settings/acme/site');
    expect(projects.text).toContain('/settings/other/site');
    const [inOther] = await members('other');
    // A name is the workspace's: other gave him none.
    expect(inOther).toMatchObject({ email: 'sam@agency.example', name: 'sam', status: 'active' });
    expect(inOther!.id).not.toBe(sam.id);
  });

  it('a member gets 403 forbidden managing members or tokens, and the pages do not offer it', async () => {
    const membersPage = await samSession.get('/settings/acme/members');
    expect(membersPage.status).toBe(200);
    expect(membersPage.text).toContain('sam@agency.example');
    expect(membersPage.text).not.toContain('>Invite<');
    expect(membersPage.text).not.toContain('/remove');
    const csrf = await samSession.csrf('/settings/acme/members');
    const tries = [
      await samSession.post('/settings/acme/members', { _csrf: csrf, email: 'eve@agency.example' }),
      await samSession.post(`/settings/acme/members/${sam.id}/role`, { _csrf: csrf, role: 'owner' }),
      await samSession.post(`/settings/acme/members/${sam.id}/remove`, { _csrf: csrf }),
      await samSession.post('/settings/tokens', { _csrf: csrf, name: 'mine', workspace: 'acme' }),
      await samSession.get('/settings/tokens'),
    ];
    expect(tries.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
    expect(tries[0]!.text).toContain('only owners and tokens of this workspace can manage its members and tokens');
    expect((await members()).map((member) => member.email)).not.toContain('eve@agency.example');
    expect((await members()).find((member) => member.id === sam.id)?.role).toBe('member');
  });

  it('an owner manages members on the page; a member made owner may too, at once', async () => {
    expect((await cli.svc(['members', 'set', sam.id, '--role', 'owner', '--json'])).json()).toMatchObject({ ok: true, member: { id: sam.id, role: 'owner' } });
    const csrf = await samSession.csrf('/settings/acme/members');
    const invited = await samSession.post('/settings/acme/members', { _csrf: csrf, email: 'kim@agency.example', name: 'Kim', role: 'member' });
    expect(invited.status).toBe(201);
    expect(invited.text).toMatch(/\/login\/invite\/[0-9a-z]+/);
    expect((await members()).find((member) => member.email === 'kim@agency.example')).toMatchObject({ name: 'Kim', status: 'invited' });
    expect((await samSession.get('/settings/tokens')).status).toBe(200);
    expect((await cli.svc(['members', 'set', sam.id, '--role', 'member'])).code).toBe(0);
  });

  it('removing a member ends their access to the workspace at once', async () => {
    const kim = (await members()).find((member) => member.email === 'kim@agency.example')!;
    const url = (await invite('kim@agency.example')).json<{ inviteUrl: string }>().inviteUrl;
    const { session } = await openLink(url);
    expect((await session.get('/settings')).status).toBe(200);
    const removed = await cli.svc(['members', 'remove', kim.id, '--json']);
    expect(removed.json()).toMatchObject({ ok: true, member: { id: kim.id, email: 'kim@agency.example' } });
    const after = await session.get('/settings');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toMatch(/^\/login/);
    expect((await members()).map((member) => member.email)).not.toContain('kim@agency.example');
  });

  it('writes each change of a membership to the audit log once, naming who acted', async () => {
    const invited = await invite('audit-trail@agency.example', '--name', 'Lee');
    expect(invited.code).toBe(0);
    const url = invited.json<{ member: Member; inviteUrl: string }>();
    const lee = url.member;
    await openLink(url.inviteUrl);
    expect((await cli.svc(['members', 'set', lee.id, '--role', 'owner', '--json'])).code).toBe(0);
    expect((await cli.svc(['members', 'remove', lee.id, '--json'])).code).toBe(0);
    type Entry = { action: string; actor: { type: string; id: string; name: string }; object: { type: string; id: string } | null; workspace: string | null };
    const entries = (await cli.svc(['audit-log', '--workspace', 'acme', '--limit', '200', '--json'])).json<{ entries: Entry[] }>().entries;
    const aboutLee = entries.filter((entry) => entry.object?.id === lee.id).map((entry) => [entry.action, entry.actor.type]).reverse();
    expect(aboutLee).toEqual([
      ['member.invited', 'token'],
      ['member.joined', 'member'],
      ['member.role_changed', 'token'],
      ['member.removed', 'token'],
    ]);
    const signedIn = entries.filter((entry) => entry.action === 'session.started' && entry.actor.id === lee.id);
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]!.actor).toEqual({ type: 'member', id: lee.id, name: 'Lee' });
  });

  it('emails a sign-in link to a member, answers an unknown address the same, and the link works once', async () => {
    const before = mail.mails.length;
    const asked = await new PageSession(cli.url).post('/login/email', { email: 'sam@agency.example' });
    const unknown = await new PageSession(cli.url).post('/login/email', { email: 'nobody@agency.example' });
    expect(asked.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.text.replaceAll('nobody@agency.example', 'X')).toBe(asked.text.replaceAll('sam@agency.example', 'X'));
    const sent = await mail.waitForMailTo('sam@agency.example', before);
    expect(mail.mails.slice(before).filter((one) => one.to.includes('nobody@agency.example'))).toEqual([]);
    const url = linkIn(sent.raw);
    expect(url).toContain('/login/email/');
    const { session, answer } = await openLink(url);
    expect(answer.status).toBe(303);
    expect((await session.get('/settings')).text).toContain('/settings/acme/site');
    expect((await openLink(url)).answer.status).toBe(401);
    // The login page offers it, since this server sends email.
    const login = await new PageSession(cli.url).get('/login');
    expect(login.text).toContain('Email me a sign-in link');
  });

  it('an invite link is no sign-in link, nor the other way round: pressed at the other route it is refused and left unspent', async () => {
    const before = mail.mails.length;
    const inviteUrl = (await invite('kim@agency.example')).json<{ inviteUrl: string }>().inviteUrl;
    expect((await new PageSession(cli.url).post('/login/email', { email: 'sam@agency.example' })).status).toBe(200);
    const emailUrl = linkIn((await mail.waitForMailTo('sam@agency.example', before)).raw);
    const inviteSecret = new URL(inviteUrl).pathname.split('/').pop()!;
    const emailSecret = new URL(emailUrl).pathname.split('/').pop()!;
    for (const [opened, other] of [
      [inviteUrl, `/login/email/${inviteSecret}`],
      [emailUrl, `/login/invite/${emailSecret}`],
    ] as const) {
      expect((await new PageSession(cli.url).get(other)).status).toBe(401);
      // A form token from a page of the right route, then the button's POST at the other one.
      const session = new PageSession(cli.url);
      const csrf = await session.csrf(new URL(opened).pathname);
      const pressed = await session.post(other, { _csrf: csrf });
      expect(pressed.status).toBe(401);
      expect(session.signedIn).toBe(false);
      // The link itself still works where it belongs.
      expect((await openLink(opened)).answer.status).toBe(303);
    }
    expect((await members()).find((member) => member.email === 'kim@agency.example')).toMatchObject({ status: 'active' });
  });

  it('sets a name on the account page; replies are signed with it', async () => {
    const csrf = await samSession.csrf('/settings/account');
    expect((await samSession.post('/settings/account', { _csrf: csrf, name: 'Sam Rivera' })).status).toBe(303);
    const account = await samSession.get('/settings/account');
    expect(account.text).toContain('Sam Rivera');
    expect(account.text).toContain('acme');
    expect((await members()).find((member) => member.id === sam.id)?.name).toBe('Sam Rivera');
    // Set by him, in every workspace his session sees.
    expect((await members('other'))[0]?.name).toBe('Sam Rivera');
  });

  describe('bad input: a clear error in the documented shape, nothing half-done', () => {
    it('a malformed email', async () => {
      for (const email of ['not-an-email', 'a@b', 'a b@example.com']) {
        const result = await invite(email);
        expect(result.code, email).toBe(1);
        expect(result.json(), email).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
      }
      const page = await new PageSession(cli.url).post('/login/email', { email: 'not-an-email' });
      expect(page.status).toBe(400);
      expect(page.text).toContain('Enter a valid email address');
      expect((await members()).map((member) => member.email)).not.toContain('not-an-email');
    });

    it('an unknown member id', async () => {
      for (const args of [['members', 'set', 'mem_unknown', '--role', 'owner'], ['members', 'remove', 'mem_unknown']]) {
        const result = await cli.svc([...args, '--json']);
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.json(), args.join(' ')).toMatchObject({ ok: false, error: { code: 'not_found' } });
      }
    });

    it('a role that does not exist', async () => {
      const answer = await request(`${cli.url}/api/cli/members`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cli.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'pat@agency.example', workspace: 'acme', role: 'admin' }),
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ ok: false, error: 'invalid_body', message: expect.stringMatching(/role/) });
      const cliAnswer = await invite('pat@agency.example', '--role', 'admin');
      expect(cliAnswer.code).not.toBe(0);
      expect((await members()).map((member) => member.email)).not.toContain('pat@agency.example');
    });

    it('a link that is unknown or was used', async () => {
      for (const path of ['/login/invite/nope', '/login/email/nope']) {
        expect((await new PageSession(cli.url).get(path)).status, path).toBe(401);
      }
    });

    it('an admin token without --workspace is told to name one', async () => {
      const result = await cli.svc(['members', 'invite', 'pat@agency.example', '--json']);
      expect(result.json()).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    });
  });

  it('a workspace token manages its own members only', async () => {
    const token = (await cli.svc(['tokens', 'create', '--workspace', 'acme', '--json'])).json<{ secret: string }>().secret;
    const own = await cli.svc(['members', 'invite', 'ana@agency.example', '--json'], { token });
    expect(own.json()).toMatchObject({ ok: true, member: { workspace: 'acme' } });
    const other = await cli.svc(['members', 'list', '--workspace', 'other', '--json'], { token });
    expect(other.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
