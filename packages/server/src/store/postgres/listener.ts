import pg from 'pg';

const reconnectDelaysMs = [100, 500, 1_000, 5_000];

/**
 * A dedicated connection that LISTENs on some channels and reconnects when it drops. While
 * it is down, workers still find work through their slow safety-net poll and hosting looks
 * hostnames up on every request. Once it is back, every channel's handler is called:
 * anything announced meanwhile was missed.
 */
export class Listener {
  private client: pg.Client | null = null;
  private started = false;
  private stopped = false;
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly channels: Readonly<Record<string, () => void>>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** True while notifications arrive (false before the first connection and while reconnecting). */
  get listening(): boolean {
    return this.client !== null;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'svc-listen' });
    client.on('notification', (message) => this.channels[message.channel]?.());
    client.on('error', (error) => {
      this.onError(error);
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      for (const channel of Object.keys(this.channels)) await client.query(`LISTEN ${channel}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.client = client;
      this.failures = 0;
      // Anything committed while we were not listening is picked up now.
      for (const handler of Object.values(this.channels)) handler();
    } catch (error) {
      this.onError(error);
      this.reconnect(client);
    }
  }

  private reconnect(client: pg.Client): void {
    if (this.stopped || this.timer) return;
    if (this.client && this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    const delay = reconnectDelaysMs[Math.min(this.failures, reconnectDelaysMs.length - 1)] ?? 5_000;
    this.failures += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
  }
}
