/**
 * One writer at a time within this process, across its two SQLite connections (the main
 * thread's and the submission writer thread's). Waiting here is asynchronous; waiting in
 * SQLite's busy handler would put the whole event loop to sleep.
 */
export class WriteLock {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves once the lock is held; call the returned function to release it. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => released);
    return acquired;
  }
}
