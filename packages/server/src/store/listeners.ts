/** A set of wake-up listeners; a listener that throws does not stop the others. */
export class WakeUps {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly onError: (error: unknown) => void) {}

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  fire(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
