import type { SentRequest } from './api.js';

/** The requests this browser sent to one project, kept so the reporter sees replies later. */
export class SentRequests {
  private readonly storageKey: string;

  constructor(key: string) {
    this.storageKey = `pinpoints:${key}`;
  }

  list(): SentRequest[] {
    try {
      const parsed = JSON.parse(localStorage.getItem(this.storageKey) ?? '[]') as unknown;
      return Array.isArray(parsed) ? parsed.filter(isSentRequest) : [];
    } catch {
      // Storage blocked (privacy settings) or damaged: the widget works without history.
      return [];
    }
  }

  add(request: SentRequest): void {
    this.save([request, ...this.list().filter((sent) => sent.id !== request.id)].slice(0, maxKept));
  }

  forget(id: string): void {
    this.save(this.list().filter((sent) => sent.id !== id));
  }

  private save(requests: SentRequest[]): void {
    try {
      localStorage.setItem(this.storageKey, JSON.stringify(requests));
    } catch {
      // As above: without storage there is no history, and nothing else breaks.
    }
  }
}

const maxKept = 20;

function isSentRequest(value: unknown): value is SentRequest {
  return typeof value === 'object' && value !== null && typeof (value as SentRequest).id === 'string' && typeof (value as SentRequest).readToken === 'string';
}
