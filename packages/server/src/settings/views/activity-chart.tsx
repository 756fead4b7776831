import { activityTotals, type ActivityHour } from '../../operations/activity.js';

/** Width of one hour in the plot's coordinates; the plot is 100 high. */
const slot = 10;
const barWidth = 3.4;

/**
 * The overview's chart, drawn by the server (no script): per hour, submissions and
 * succeeded deliveries side by side, failed attempts stacked on the deliveries in red. The
 * bars are SVG stretched to the card's width; the axis labels are HTML text beside and under
 * it, so they stay legible on a phone. Each bar has a `<title>` with its numbers, the whole
 * chart a text summary for screen readers.
 */
export function ActivityChart(props: { hours: readonly ActivityHour[] }) {
  const { hours } = props;
  const peak = Math.max(0, ...hours.map((hour) => Math.max(hour.submissions, hour.delivered + hour.failedAttempts)));
  const ticks = axisTicks(peak);
  const top = Math.max(1, ticks[ticks.length - 1] ?? 0);
  const y = (value: number) => 100 - (value / top) * 100;
  const summary = activitySummary(hours);
  return (
    <figure class="chart">
      <div class="chart-area">
        <div class={ticks.length === 1 ? 'chart-y single' : 'chart-y'} aria-hidden="true">
          {[...ticks].reverse().map((tick) => (
            <span key={tick}>{tick}</span>
          ))}
        </div>
        <svg class="chart-plot" viewBox={`0 0 ${hours.length * slot} 100`} preserveAspectRatio="none" role="img" aria-label={summary}>
          {ticks.map((tick) => (
            <line key={tick} class="axis" x1={0} x2={hours.length * slot} y1={y(tick)} y2={y(tick)} vector-effect="non-scaling-stroke" />
          ))}
          {hours.map((hour, index) => {
            const x = index * slot + (slot - 2 * barWidth) / 2;
            const label = `${hour.start.slice(11, 16)} UTC`;
            return (
              <g key={hour.start}>
                <rect class="bar-submissions" x={x} y={y(hour.submissions)} width={barWidth} height={100 - y(hour.submissions)}>
                  <title>{`${label}: ${hour.submissions} submissions${hour.spam ? `, ${hour.spam} spam` : ''}`}</title>
                </rect>
                <rect class="bar-succeeded" x={x + barWidth} y={y(hour.delivered)} width={barWidth} height={100 - y(hour.delivered)}>
                  <title>{`${label}: ${hour.delivered} deliveries succeeded`}</title>
                </rect>
                <rect class="bar-failed" x={x + barWidth} y={y(hour.delivered + hour.failedAttempts)} width={barWidth} height={y(hour.delivered) - y(hour.delivered + hour.failedAttempts)}>
                  <title>{`${label}: ${hour.failedAttempts} attempts failed`}</title>
                </rect>
              </g>
            );
          })}
        </svg>
        {peak === 0 ? <p class="chart-empty">Nothing in the last 24 hours</p> : null}
        <div class="chart-x" aria-hidden="true">
          {hours.map((hour) => {
            const clockHour = Number(hour.start.slice(11, 13));
            // Every third hour on a wide screen, every sixth on a phone.
            const shown = clockHour % 3 === 0;
            return (
              <span key={hour.start} class={shown && clockHour % 6 !== 0 ? 'minor' : undefined}>
                {shown ? hour.start.slice(11, 16) : ''}
              </span>
            );
          })}
        </div>
      </div>
      <figcaption class="legend">
        <span class="swatch-submissions">Submissions</span>
        <span class="swatch-succeeded">Deliveries succeeded</span>
        <span class="swatch-failed">Attempts failed</span>
        <span class="muted">{`${summary} Hours in UTC.`}</span>
      </figcaption>
    </figure>
  );
}

/** `Last 24 hours: 3 submissions (1 spam), 29 deliveries succeeded, 2 attempts failed.` */
export function activitySummary(hours: readonly ActivityHour[]): string {
  const totals = activityTotals(hours);
  return `Last 24 hours: ${totals.submissions} submissions${totals.spam > 0 ? ` (and ${totals.spam} spam)` : ''}, ${totals.delivered} deliveries succeeded, ${totals.failedAttempts} attempts failed.`;
}

/**
 * The value axis: 0 and whole, evenly spaced steps of 1, 2 or 5 × 10ⁿ up to the first at or
 * above the peak, at most five of them; just 0 when there is nothing to show.
 */
export function axisTicks(peak: number): number[] {
  if (peak <= 0) return [0];
  let step = 1;
  for (let magnitude = 1; step * 4 < peak; magnitude *= 10) {
    step = [1, 2, 5].map((factor) => factor * magnitude).find((candidate) => candidate * 4 >= peak) ?? 10 * magnitude;
  }
  const top = Math.ceil(peak / step) * step;
  return Array.from({ length: top / step + 1 }, (_, index) => index * step);
}
