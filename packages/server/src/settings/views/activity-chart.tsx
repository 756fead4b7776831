import type { ActivityHour } from '../../operations/activity.js';

const width = 720;
const height = 200;
const top = 12;
const bottom = 28;
const left = 36;

/**
 * The overview's chart, drawn by the server as SVG (no script): per hour, submissions and
 * finished deliveries side by side, failures stacked on deliveries in red. Each bar has a
 * `<title>` with its numbers, and the whole chart a text summary for screen readers.
 */
export function ActivityChart(props: { hours: readonly ActivityHour[] }) {
  const { hours } = props;
  const peak = Math.max(1, ...hours.map((hour) => Math.max(hour.submissions + hour.spam, hour.delivered + hour.failed)));
  const scale = niceCeiling(peak);
  const plotHeight = height - top - bottom;
  const slot = (width - left) / hours.length;
  const barWidth = Math.max(3, slot / 2 - 3);
  const y = (value: number) => top + plotHeight - (value / scale) * plotHeight;
  const totals = hours.reduce((sum, hour) => ({ submissions: sum.submissions + hour.submissions, delivered: sum.delivered + hour.delivered, failed: sum.failed + hour.failed }), { submissions: 0, delivered: 0, failed: 0 });
  const summary = `Last 24 hours: ${totals.submissions} submissions, ${totals.delivered} deliveries succeeded, ${totals.failed} failed.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
        {[0, 0.5, 1].map((fraction) => (
          <g key={fraction}>
            <line class="axis" x1={left} x2={width} y1={y(scale * fraction)} y2={y(scale * fraction)} />
            <text class="label" x={left - 6} y={y(scale * fraction) + 4} text-anchor="end">
              {Math.round(scale * fraction)}
            </text>
          </g>
        ))}
        {hours.map((hour, index) => {
          const x = left + index * slot + 2;
          const label = hour.start.slice(11, 16);
          const deliveredTop = y(hour.delivered + hour.failed);
          return (
            <g key={hour.start}>
              <rect class="bar-submissions" x={x} y={y(hour.submissions)} width={barWidth} height={y(0) - y(hour.submissions)}>
                <title>{`${label} UTC: ${hour.submissions} submissions${hour.spam ? `, ${hour.spam} spam` : ''}`}</title>
              </rect>
              <rect class="bar-succeeded" x={x + barWidth + 1} y={y(hour.delivered)} width={barWidth} height={y(0) - y(hour.delivered)}>
                <title>{`${label} UTC: ${hour.delivered} deliveries succeeded`}</title>
              </rect>
              <rect class="bar-failed" x={x + barWidth + 1} y={deliveredTop} width={barWidth} height={y(hour.delivered) - deliveredTop}>
                <title>{`${label} UTC: ${hour.failed} deliveries failed`}</title>
              </rect>
              {index % 4 === 0 ? (
                <text class="label" x={x + barWidth} y={height - 8} text-anchor="middle">
                  {label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        <span class="swatch-submissions">
          Submissions
        </span>
        <span class="swatch-succeeded">Deliveries succeeded</span>
        <span class="swatch-failed">Deliveries failed</span>
        <span class="muted">{summary}</span>
      </figcaption>
    </figure>
  );
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}
