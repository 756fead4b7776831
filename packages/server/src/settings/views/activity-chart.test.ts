import { render } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import type { ActivityHour } from '../../operations/activity.js';
import { ActivityChart, axisTicks } from './activity-chart.js';

const hours = (counts: Partial<Omit<ActivityHour, 'start'>> = {}): ActivityHour[] =>
  Array.from({ length: 24 }, (_, index) => ({ start: new Date(Date.UTC(2026, 10, 26, index)).toISOString(), submissions: 0, spam: 0, delivered: 0, failedAttempts: 0, ...(index === 23 ? counts : {}) }));

describe("the overview's chart", () => {
  it('has a value axis from 0 in whole, even steps up to the first at or above the peak', () => {
    expect(axisTicks(0)).toEqual([0]);
    expect(axisTicks(1)).toEqual([0, 1]);
    expect(axisTicks(3)).toEqual([0, 1, 2, 3]);
    expect(axisTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(axisTicks(29)).toEqual([0, 10, 20, 30]);
    expect(axisTicks(45)).toEqual([0, 20, 40, 60]);
    expect(axisTicks(1000)).toEqual([0, 500, 1000]);
  });

  it('labels an empty chart 0 only, and says there is nothing to show', () => {
    const html = render(ActivityChart({ hours: hours() }));
    expect([...html.matchAll(/<span>(\d+)<\/span>/g)].map((match) => match[1])).toEqual(['0']);
    expect(html).toContain('Nothing in the last 24 hours');
    // Its one line, at 0, is the bottom of the plot.
    expect(html).toContain('y1="100" y2="100"');
  });

  it('stacks failed attempts on the succeeded deliveries and says so in its summary', () => {
    const html = render(ActivityChart({ hours: hours({ submissions: 2, delivered: 3, failedAttempts: 4 }) }));
    expect([...html.matchAll(/<span>(\d+)<\/span>/g)].map((match) => match[1])).toEqual(['8', '6', '4', '2', '0']);
    expect(html).toContain('aria-label="Last 24 hours: 2 submissions, 3 deliveries succeeded, 4 attempts failed."');
    expect(html).toContain('<title>23:00 UTC: 4 attempts failed</title>');
  });
});
