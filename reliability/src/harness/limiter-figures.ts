/** The form limit's windows held and dropped, and the counts made without Redis, from `/metrics`. */
export async function limiterFigures(url: string): Promise<{ windows: number; dropped: number; fallbacks: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const lines = text.split('\n');
  const value = (series: string) => Number(lines.find((line) => line.startsWith(`${series} `))?.slice(series.length + 1) ?? 0);
  return {
    windows: value('svc_rate_limit_windows{limit="form"}'),
    dropped: value('svc_rate_limit_windows_dropped_total{limit="form"}'),
    fallbacks: value('svc_rate_limit_fallbacks_total'),
  };
}
