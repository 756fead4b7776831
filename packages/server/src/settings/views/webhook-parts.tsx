import type { WebhookHealth } from '../../operations/webhook-health.js';
import { Badge } from './components.js';

const healthText: Record<WebhookHealth, [tone: 'ok' | 'bad' | 'warn' | 'neutral', label: string]> = {
  healthy: ['ok', 'Healthy'],
  failing: ['bad', 'Failing'],
  disabled: ['warn', 'Disabled'],
  unknown: ['neutral', 'No deliveries yet'],
};

export function HealthBadge(props: { health: WebhookHealth }) {
  const [tone, label] = healthText[props.health];
  return <Badge tone={tone}>{label}</Badge>;
}

export function DeliveryStatusBadge(props: { status: 'pending' | 'succeeded' | 'failed' }) {
  const tone = props.status === 'succeeded' ? 'ok' : props.status === 'failed' ? 'bad' : 'warn';
  const label = props.status === 'succeeded' ? 'Succeeded' : props.status === 'failed' ? 'Failed' : 'Pending';
  return <Badge tone={tone}>{label}</Badge>;
}

/** What a receiver answered, in words: `200`, `no answer: timeout`… */
export function answerText(statusCode: number | null, error: string | null): string {
  if (statusCode !== null) return error && !error.startsWith('answered') ? `${statusCode} · ${error}` : String(statusCode);
  return error ?? 'no answer';
}
