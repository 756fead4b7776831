// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, eventually, postJson, selectBackend, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';

const backend = await selectBackend();

interface Delivery {
  id: string;
  eventId: string;
  status: string;
}

describe.runIf(backend.available)(`svc deliveries replay on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let directory: string;
  let webhookId: string;
  let formUrl: string;
  let down = true;

  const svc = (args: string[]) => cli.svc(args, { cwd: directory });
  const deliveries = async (): Promise<Delivery[]> => (await svc(['deliveries', 'list', '--webhook', webhookId, '--limit', '100', '--json'])).json<{ deliveries: Delivery[] }>().deliveries;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets', '--retry-schedule', '50ms', '--delivery-poll-interval', '300ms']);
    receiver = await startReceiver(() => (down ? { status: 503, body: 'down for maintenance' } : { status: 204 }));
    directory = await createProject(cli, 'replays', 'site', { forms: [{ slug: 'contact' }] });
    formUrl = (await svc(['forms', 'list', '--json'])).json<{ forms: { url: string }[] }>().forms[0]!.url;
    webhookId = (await svc(['webhooks', 'add', '--url', `${receiver.url}/hook`, '--events', 'form.*', '--json'])).json<{ webhook: { id: string } }>().webhook.id;
  });
  afterAll(async () => {
    await receiver?.close();
    await cli?.stop();
  });

  // Each poll of the delivery list runs the real `svc`: a dozen processes in all.
  it('sends the failed deliveries of a time range again, each once, and leaves the others alone', { timeout: 90_000 }, async () => {
    down = false;
    expect((await postJson(formUrl, { n: 0 })).status).toBe(200);
    await eventually(deliveries, (list) => list.length === 1 && list[0]!.status === 'succeeded', 'the first delivery');
    down = true;
    for (let n = 1; n <= 3; n++) expect((await postJson(formUrl, { n })).status).toBe(200);
    const failed = await eventually(deliveries, (list) => list.filter((delivery) => delivery.status === 'failed').length === 3, 'three failed deliveries');
    const failedEvents = failed.filter((delivery) => delivery.status === 'failed').map((delivery) => delivery.eventId);
    down = false;
    const before = receiver.requests.length;

    const replay = await svc(['deliveries', 'replay', '--webhook', webhookId, '--since', '1h', '--json']);
    expect(replay.json()).toMatchObject({ ok: true, webhookId, status: 'failed', replayed: 3 });
    await receiver.waitFor(before + 3);
    await eventually(deliveries, (list) => list.every((delivery) => delivery.status === 'succeeded'), 'every delivery succeeded');
    const replayedRequests = receiver.requests.slice(before);
    expect(replayedRequests.map((request) => request.eventId).sort()).toEqual([...failedEvents].sort());

    const nothing = await svc(['deliveries', 'replay', '--webhook', webhookId, '--since', '1h']);
    expect(nothing.stdout).toMatch(/^No failed delivery of wh_\S+ between /);
    const all = await svc(['deliveries', 'replay', '--webhook', webhookId, '--since', '1h', '--status', 'all', '--json']);
    expect(all.json()).toMatchObject({ replayed: 4 });
    const future = await svc(['deliveries', 'replay', '--webhook', webhookId, '--since', '2999-01-01T00:00:00Z', '--json']);
    expect(future.json()).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
  });
});
