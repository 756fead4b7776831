import type { StoreSignal } from './store.js';

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

/** A signal heard in this process only: every announcement reaches every listener. */
export function inProcessSignal(onError: (error: unknown) => void): StoreSignal {
  const wakeUps = new WakeUps(onError);
  return { announce: () => wakeUps.fire(), on: (listener) => wakeUps.add(listener), hears: () => true };
}
