/** Whether this run is CI (`CI=true`): there, suites that need a server or a browser must run, never skip. */
export const inCi = (): boolean => ['true', '1'].includes((process.env['CI'] ?? '').toLowerCase());
