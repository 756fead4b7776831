/**
 * Times as the settings pages show them (docs/settings.md): relative to the moment the page
 * was rendered ("5 min ago", "in 2 h"), with the exact time in UTC for the tooltip. Pages
 * are rendered on the server, which does not know the reader's time zone: relative times
 * read the same everywhere.
 */

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`, `in 15 min`; a date beyond 30 days. */
export function relativeTime(at: number, now: number): string {
  const distance = Math.abs(now - at);
  const past = at <= now;
  const say = (amount: number, unit: string) => (past ? `${amount} ${unit} ago` : `in ${amount} ${unit}`);
  if (distance < 45_000) return past ? 'just now' : 'in a moment';
  if (distance < 59.5 * minute) return say(Math.max(1, Math.round(distance / minute)), 'min');
  if (distance < 23.5 * hour) return say(Math.round(distance / hour), 'h');
  if (distance < 30 * day) {
    const days = Math.max(1, Math.round(distance / day));
    return say(days, days === 1 ? 'day' : 'days');
  }
  const date = new Date(at);
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** `2026-11-26 16:58:51 UTC`. */
export function exactTime(at: number): string {
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}
