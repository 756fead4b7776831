// Emails that carry a link go through an outbox (docs/members.md, "Emails that carry a
// link"): a mail server that is down for a while delays an invite or a sign-in link, never
// loses it, and the link is never kept in the clear. A real `svc serve`, a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server';
import { type CliTestServer, createProject, type MailServer, PageSession, selectBackend, startCliTestServer, startMailServer } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`the mail outbox on ${backend.name}`, () => {
  let mail: MailServer;
  let cli: CliTestServer;
  let store: Store;

  beforeAll(async () => {
    mail = await startMailServer();
    // Retries a quarter of a second apart, and every few seconds the outbox looks again.
    cli = await startCliTestServer(['--smtp-url', mail.url, '--mail-from', 'svc@agency.example', '--retry-schedule', '250ms,250ms,250ms,250ms,250ms,250ms,250ms,250ms']);
    store = await cli.environment.openStore();
    await createProject(cli, 'outbox', 'site');
  });
  afterAll(async () => {
    await store?.close();
    await cli?.stop();
    await mail?.close();
  });

  const rows = (recipient: string) => store.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', recipient).execute();

  it('sends an invite once the mail server is back, after refused attempts, and keeps its link sealed meanwhile', async () => {
    mail.refuse(true);
    const before = mail.mails.length;
    const invited = await cli.svc(['members', 'invite', 'lee@agency.example', '--workspace', 'outbox', '--json']);
    expect(invited.code, invited.stderr).toBe(0);
    // Refused (451) at least once: the message waits in the outbox, sealed.
    await expect.poll(async () => (await rows('lee@agency.example'))[0]?.attempts ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
    const [waiting] = await rows('lee@agency.example');
    expect(waiting).toMatchObject({ status: 'pending', purpose: 'invite', last_error: expect.stringContaining('451') });
    expect(waiting!.message_sealed).not.toContain('/login/invite/');
    expect(mail.mails.slice(before).filter((one) => one.to.includes('lee@agency.example'))).toEqual([]);

    mail.refuse(false);
    const sent = await mail.waitForMailTo('lee@agency.example', before, 20_000);
    expect(sent.raw).toMatch(/login\/invite\//);
    await expect.poll(async () => (await rows('lee@agency.example'))[0]?.status, { timeout: 10_000 }).toBe('sent');
    // Sent: the message, and its link, are gone from the database.
    expect((await rows('lee@agency.example'))[0]!.message_sealed).toBeNull();
    expect(mail.mails.slice(before).filter((one) => one.to.includes('lee@agency.example'))).toHaveLength(1);
  });

  it('sends a sign-in link asked for by email the same way', async () => {
    // A member with an active membership: the emailed invite opened.
    const before = mail.mails.length;
    await cli.svc(['members', 'invite', 'kim@agency.example', '--workspace', 'outbox', '--json']);
    const invite = await mail.waitForMailTo('kim@agency.example', before);
    const link = /https?:\/\/[^\s"<>]+\/login\/invite\/[0-9a-z]+/.exec(invite.raw.replace(/=\r?\n/g, ''))![0];
    expect(await new PageSession(cli.url).openSignInLink(link)).toMatchObject({ status: 303 });

    mail.refuse(true);
    const asked = mail.mails.length;
    expect((await new PageSession(cli.url).post('/login/email', { email: 'kim@agency.example' })).status).toBe(200);
    await expect.poll(async () => (await rows('kim@agency.example')).find((row) => row.purpose === 'sign-in')?.attempts ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
    mail.refuse(false);
    const signIn = await mail.waitForMailTo('kim@agency.example', asked, 20_000);
    expect(signIn.raw).toMatch(/login\/email\//);
  });
});
