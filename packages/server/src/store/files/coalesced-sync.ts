/**
 * Group commit for a directory's fsync: every caller is answered by a sync that started
 * after it asked, and callers that ask while one is running share the next one. Files
 * renamed into one directory by concurrent requests thus cost one directory sync between
 * them, not one each.
 */
export class CoalescedSync {
  private current: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly syncOnce: () => Promise<void>) {}

  sync(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.current) return (this.current = this.start());
    // The running sync may have begun before this caller's change: wait for the next.
    this.queued = this.current
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return (this.current = this.start());
      });
    return this.queued;
  }

  private start(): Promise<void> {
    const run: Promise<void> = this.syncOnce().finally(() => {
      if (this.current === run) this.current = null;
    });
    return run;
  }
}
