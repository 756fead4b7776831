// Issue 37, the people findings of the fourth adversarial test: no tenant reaches another
// through invites, removals or names (docs/members.md). Each repro sits beside the control
// that shows the legitimate case still works. Against a real `svc serve` and a real SMTP
// server; set-up goes through the CLI API, the `svc` binary only where its output is tested.
import { cliPaths } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, type MailServer, PageSession, request, selectBackend, startCliTestServer, startMailServer } from '@svc/testkit';

const backend = await selectBackend();

interface Member {
  id: string;
  email: string;
  name: string;
  workspace: string;
  role: string;
  status: string;
}
interface Entry {
  actor: { type: string; id: string; name: string };
  action: string;
  object: { type: string; id: string; name?: string } | null;
  change?: { from: string | null; to: string | null };
}

/** Low enough to reach in a few calls (docs/members.md gives the defaults). */
const workspaceLimit = 10;
const addressLimit = 3;

describe.runIf(backend.available)(`invites, removals and names reach no other tenant on ${backend.name}`, { timeout: 120_000 }, () => {
  let mail: MailServer;
  let cli: CliTestServer;

  const api = async (method: string, path: string, body?: unknown, token = cli.adminToken) =>
    request(`${cli.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const createProject = async (workspace: string, project = 'site') =>
    api('POST', cliPaths.projects(), { config: { workspace, project, framework: 'static', environments: { production: { branch: 'main' } } } });
  const invite = async (workspace: string, email: string, extra: { name?: string; role?: string } = {}, token?: string) => {
    const answer = await api('POST', cliPaths.members(), { email, workspace, ...extra }, token);
    return { status: answer.status, body: answer.body as { member: Member; inviteUrl: string; error?: string; retryAfter?: number } };
  };
  const members = async (workspace: string) => ((await api('GET', `${cliPaths.members()}?workspace=${workspace}`)).body as { members: Member[] }).members;
  const memberOf = async (workspace: string, email: string) => (await members(workspace)).find((member) => member.email === email);
  const auditLog = async (workspace: string) => ((await api('GET', `${cliPaths.auditLog()}?workspace=${workspace}&limit=200`)).body as { entries: Entry[] }).entries;

  /** The newest email to `address` after the first `after` emails, waited for. */
  const mailTo = async (address: string, after: number) => {
    for (let count = after + 1; ; count += 1) {
      const found = (await mail.waitFor(count)).slice(after).findLast((one) => one.to.includes(address));
      if (found) return found;
    }
  };
  const linkIn = (raw: string) => {
    const link = /https?:\/\/[^\s"<>]+\/login\/(?:invite|email)\/[0-9a-z]+/.exec(raw.replace(/=\r?\n/g, ''))?.[0];
    if (!link) throw new Error(`no link in\n${raw}`);
    return link;
  };
  /** Invites and returns both links: the one in the answer (the inviter saw it) and the emailed one. */
  const inviteWithLinks = async (workspace: string, email: string, extra: { name?: string; role?: string } = {}, token?: string) => {
    const before = mail.mails.length;
    const answer = await invite(workspace, email, extra, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { member: answer.body.member, shown: answer.body.inviteUrl, emailed: linkIn((await mailTo(email, before)).raw) };
  };
  /** A new browser-like client that opens a link and presses Sign in. */
  const openLink = async (url: string) => {
    const session = new PageSession(cli.url);
    const answer = await session.openSignInLink(url);
    return { session, answer };
  };
  const sees = async (session: PageSession, workspace: string) => (await session.get(`/settings/${workspace}/site`)).status === 200;

  beforeAll(async () => {
    mail = await startMailServer();
    cli = await startCliTestServer(['--smtp-url', mail.url, '--mail-from', 'svc@agency.example', '--invite-limit', `${workspaceLimit}/1d`, '--invite-address-limit', `${addressLimit}/1d`]);
    for (const workspace of ['victim', 'evil', 'solo']) expect((await createProject(workspace)).status).toBe(200);
  });
  afterAll(async () => {
    await cli?.stop();
    await mail?.close();
  });

  /** Vera, owner of `victim`, signed in from the invite emailed to her. */
  let vera: { member: Member; session: PageSession };
  /** A token of `evil`, the other tenant. */
  let evilToken: string;

  it('the link emailed with an invite is not the one the inviter sees; opened, it signs the person in', async () => {
    const links = await inviteWithLinks('victim', 'vera@victim.example', { name: 'Vera', role: 'owner' });
    expect(links.emailed).not.toBe(links.shown);
    const { session, answer } = await openLink(links.emailed);
    expect(answer.status).toBe(303);
    expect(await sees(session, 'victim')).toBe(true);
    vera = { member: links.member, session };
    const token = await api('POST', cliPaths.tokens(), { name: 'evil ci', workspace: 'evil' });
    evilToken = (token.body as { secret: string }).secret;
  });

  describe('HIGH 1: an invite link signs in as the whole person', () => {
    it('repro: the link shown to another tenant that invited a person who belongs elsewhere starts no session', async () => {
      const veraEntries = async () => (await auditLog('victim')).filter((entry) => entry.actor.id === vera.member.id).length;
      const before = await veraEntries();
      const links = await inviteWithLinks('evil', 'vera@victim.example', {}, evilToken);
      const { session, answer } = await openLink(links.shown);
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('emailed');
      expect(session.signedIn).toBe(false);
      expect(await sees(session, 'victim')).toBe(false);
      expect(await memberOf('evil', 'vera@victim.example')).toMatchObject({ status: 'invited' });
      // Nobody acted as Vera in her workspace, and the link was left unspent.
      expect(await veraEntries()).toBe(before);
      expect((await new PageSession(cli.url).get(new URL(links.shown).pathname)).status).toBe(403);
    });

    it('control: the invite opened from the email signs the person in to all their workspaces', async () => {
      const links = await inviteWithLinks('evil', 'vera@victim.example', {}, evilToken);
      const { session, answer } = await openLink(links.emailed);
      expect(answer.status).toBe(303);
      expect(await sees(session, 'evil')).toBe(true);
      expect(await sees(session, 'victim')).toBe(true);
      expect(await memberOf('evil', 'vera@victim.example')).toMatchObject({ status: 'active' });
      // Spending one link of an invite spends the other.
      expect((await openLink(links.shown)).answer.status).toBe(401);
    });

    it('repro: the shown link of a person who belongs nowhere else opens the inviting workspace only, until they sign in by email', async () => {
      const shown = await inviteWithLinks('evil', 'nina@newcomer.example', {}, evilToken);
      const limited = await openLink(shown.shown);
      expect(limited.answer.status).toBe(303);
      expect(await sees(limited.session, 'evil')).toBe(true);
      // Later invited to another workspace, by email: the session that link starts is hers.
      const emailed = await inviteWithLinks('victim', 'nina@newcomer.example');
      const full = await openLink(emailed.emailed);
      expect(full.answer.status).toBe(303);
      expect(await sees(full.session, 'victim')).toBe(true);
      expect(await sees(full.session, 'evil')).toBe(true);
      // The session that the inviter could have started still sees the inviting workspace only.
      expect(await sees(limited.session, 'evil')).toBe(true);
      expect(await sees(limited.session, 'victim')).toBe(false);
      expect((await limited.session.get('/settings')).text).not.toContain('/settings/victim/site');
    });

    it('inviting an invited address again replaces both links; an active one is a conflict', async () => {
      const first = await inviteWithLinks('victim', 'omar@agency.example');
      const second = await inviteWithLinks('victim', 'omar@agency.example');
      for (const old of [first.shown, first.emailed]) expect((await openLink(old)).answer.status).toBe(401);
      expect((await openLink(second.emailed)).answer.status).toBe(303);
      expect(await invite('victim', 'omar@agency.example')).toMatchObject({ status: 409, body: { error: 'conflict' } });
    });
  });

  describe('MEDIUM 5: removals, invites and names of one workspace touch no other', () => {
    it('repro: inviting a person and removing the invite does not sign them out of their own workspace', async () => {
      const vic = await openLink((await inviteWithLinks('victim', 'vic@victim.example')).emailed);
      expect(await sees(vic.session, 'victim')).toBe(true);
      const invited = await invite('evil', 'vic@victim.example', {}, evilToken);
      expect(invited.status).toBe(200);
      expect((await api('DELETE', cliPaths.member(invited.body.member.id), undefined, evilToken)).status).toBe(200);
      expect(await sees(vic.session, 'victim')).toBe(true);
    });

    it('control: a person in two workspaces removed from one loses that one at once and keeps the other', async () => {
      const inEvil = await inviteWithLinks('evil', 'lee@agency.example', {}, evilToken);
      const inVictim = await inviteWithLinks('victim', 'lee@agency.example');
      const { session } = await openLink(inEvil.emailed);
      expect((await openLink(inVictim.emailed)).answer.status).toBe(303);
      expect(await sees(session, 'evil')).toBe(true);
      expect(await sees(session, 'victim')).toBe(true);
      expect((await api('DELETE', cliPaths.member(inVictim.member.id))).status).toBe(200);
      expect(await sees(session, 'victim')).toBe(false);
      expect(await sees(session, 'evil')).toBe(true);
    });

    it("repro: the name given at an invite is that workspace's, not the person's everywhere", async () => {
      expect((await openLink((await inviteWithLinks('victim', 'nora@victim.example')).emailed)).answer.status).toBe(303);
      expect((await invite('evil', 'nora@victim.example', { name: 'Pay the invoice at evil.example' }, evilToken)).status).toBe(200);
      expect(await memberOf('victim', 'nora@victim.example')).toMatchObject({ name: 'nora' });
      // Control: in the workspace that named her, she has that name.
      expect(await memberOf('evil', 'nora@victim.example')).toMatchObject({ name: 'Pay the invoice at evil.example' });
      expect(await memberOf('victim', 'vera@victim.example')).toMatchObject({ name: 'Vera' });
    });

    it(`repro: a workspace sends at most ${workspaceLimit} invites a day; control: another workspace still invites`, async () => {
      expect((await createProject('flood')).status).toBe(200);
      for (let index = 1; index <= workspaceLimit; index += 1) expect((await invite('flood', `person${index}@flood.example`)).status).toBe(200);
      const before = mail.mails.length;
      const refused = await invite('flood', 'one-more@flood.example');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ ok: false, error: 'rate_limited', retryAfter: expect.any(Number) });
      expect(await memberOf('flood', 'one-more@flood.example')).toBeUndefined();
      expect((await invite('solo', 'one-more@flood.example')).status).toBe(200);
      await mailTo('one-more@flood.example', before);
      expect(mail.mails.slice(before).filter((one) => one.to.includes('one-more@flood.example'))).toHaveLength(1);
    });

    it(`repro: one address is sent at most ${addressLimit} invites a day, by every workspace together`, async () => {
      for (const workspace of ['target-a', 'target-b']) expect((await createProject(workspace)).status).toBe(200);
      for (let index = 1; index <= addressLimit; index += 1) expect((await invite('target-a', 'target@elsewhere.example')).status).toBe(200);
      expect((await invite('target-b', 'Target@Elsewhere.example')).status).toBe(429);
      expect(await memberOf('target-b', 'target@elsewhere.example')).toBeUndefined();
      expect((await invite('target-b', 'someone-else@elsewhere.example')).status).toBe(200);
    });
  });

  describe('LOW', () => {
    it('repro: the last owner can be neither demoted nor removed; control: with a second owner they can', async () => {
      const olga = await inviteWithLinks('solo', 'olga@solo.example', { role: 'owner' });
      const olgaSession = (await openLink(olga.emailed)).session;
      for (const [method, body] of [['POST', { role: 'member' }], ['DELETE', undefined]] as const) {
        const refused = await api(method, cliPaths.member(olga.member.id), body);
        expect(refused.status, method).toBe(409);
        expect(refused.body, method).toMatchObject({ ok: false, error: 'last_owner' });
      }
      // The page says so, and changes nothing.
      const csrf = await olgaSession.csrf('/settings/solo/members');
      const page = await olgaSession.post(`/settings/solo/members/${olga.member.id}/role`, { _csrf: csrf, role: 'member' });
      expect(page.status).toBe(409);
      expect(page.text).toContain('last owner');
      expect(await memberOf('solo', 'olga@solo.example')).toMatchObject({ role: 'owner', status: 'active' });
      // An invited owner is not one yet.
      const otto = await inviteWithLinks('solo', 'otto@solo.example', { role: 'owner' });
      expect((await api('POST', cliPaths.member(olga.member.id), { role: 'member' })).status).toBe(409);
      expect((await openLink(otto.emailed)).answer.status).toBe(303);
      expect((await api('POST', cliPaths.member(olga.member.id), { role: 'member' })).status).toBe(200);
      expect((await api('DELETE', cliPaths.member(otto.member.id))).body).toMatchObject({ ok: false, error: 'last_owner' });
    });

    it('repro: workspaces and projects may not take the names of settings pages; control: names that only begin so may', async () => {
      for (const [workspace, project] of [['tokens', 'site'], ['account', 'site'], ['assets', 'site'], ['members', 'site'], ['victim', 'members'], ['victim', 'audit']] as const) {
        const refused = await createProject(workspace, project);
        expect(refused.status, `${workspace}/${project}`).toBe(422);
        expect(refused.body, `${workspace}/${project}`).toMatchObject({ ok: false, error: 'validation_failed', message: expect.stringMatching(/settings/) });
      }
      expect((await createProject('victim', 'members-area')).status).toBe(200);
      expect((await createProject('tokens-agency')).status).toBe(200);
    });

    it('repro: a rename is audited, and entries tell a member from a token of the same name', async () => {
      const bot = (await api('POST', cliPaths.tokens(), { name: 'deploy-bot', workspace: 'victim' })).body as { token: { id: string } };
      const csrf = await vera.session.csrf('/settings/account');
      expect((await vera.session.post('/settings/account', { _csrf: csrf, name: 'deploy-bot' })).status).toBe(303);
      expect(await memberOf('victim', 'vera@victim.example')).toMatchObject({ name: 'deploy-bot' });
      const renamed = (await auditLog('victim')).find((entry) => entry.action === 'member.renamed');
      expect(renamed).toMatchObject({
        actor: { type: 'member', id: vera.member.id, name: 'Vera' },
        object: { type: 'member', id: vera.member.id, name: 'vera@victim.example' },
        change: { from: 'Vera', to: 'deploy-bot' },
      });
      // What she does next is hers, under the token's name: her kind and id tell her apart.
      expect((await vera.session.post('/settings/victim/members', { _csrf: csrf, email: 'pia@victim.example' })).status).toBe(201);
      const invited = (await auditLog('victim')).find((entry) => entry.action === 'member.invited' && entry.object?.name === 'pia@victim.example');
      expect(invited?.actor).toEqual({ type: 'member', id: vera.member.id, name: 'deploy-bot' });
      const human = await cli.svc(['audit-log', '--workspace', 'victim', '--limit', '200']);
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toContain(`deploy-bot (member ${vera.member.id})`);
      expect(human.stdout).toContain(`bootstrap (token `);
      expect(human.stdout).toContain('Vera → deploy-bot');
      expect(human.stdout).toContain(`token ${bot.token.id} (deploy-bot)`);
      const page = await vera.session.get('/settings/victim/audit');
      expect(page.status).toBe(200);
      // Long values may wrap after their punctuation (`<wbr>`).
      const text = page.text.replaceAll('<wbr/>', '');
      expect(text).toContain(vera.member.id);
      expect(text).toContain('vera@victim.example');
    });

    it('repro: a role change names its member and the old and new role', async () => {
      const omar = (await memberOf('victim', 'omar@agency.example'))!;
      expect((await api('POST', cliPaths.member(omar.id), { role: 'owner' })).status).toBe(200);
      const changed = (await auditLog('victim')).find((entry) => entry.action === 'member.role_changed' && entry.object?.id === omar.id);
      expect(changed).toMatchObject({ object: { type: 'member', id: omar.id, name: 'omar@agency.example' }, change: { from: 'member', to: 'owner' } });
      expect((await api('DELETE', cliPaths.member(omar.id))).status).toBe(200);
      expect((await auditLog('victim')).find((entry) => entry.action === 'member.removed' && entry.object?.id === omar.id)).toMatchObject({ object: { name: 'omar@agency.example' } });
      const human = await cli.svc(['audit-log', '--workspace', 'victim', '--action', 'member.role_changed']);
      expect(human.stdout).toContain('omar@agency.example');
      expect(human.stdout).toContain('member → owner');
    });
  });
});
