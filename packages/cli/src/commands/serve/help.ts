/** `svc serve`'s name and help, shared by its outline and by the command with its flags. */
export const serveHelp = {
  name: 'serve',
  summary: 'run the service: form endpoints, webhook delivery, settings area, Pinpoints, hosted sites, CLI API',
  description: `Run the server. With no flags it uses the embedded SQLite database under ./.svc.
Every flag can also be given as the environment variable shown.
SVC_ENCRYPTION_KEY (base64 of 32 bytes) encrypts webhook signing secrets; without it the key
is <data-dir>/encryption.key. Instances that share a database must share SVC_ENCRYPTION_KEY.`,
  examples: [
    'svc serve',
    'svc serve --port 0 --data-dir /var/lib/svc',
    'svc serve --database-url postgres://svc@db/svc --redis-url redis://cache:6379 --host 0.0.0.0 --trust-proxy',
    'SVC_BOOTSTRAP_TOKEN=$(openssl rand -hex 32) svc serve --json',
  ],
} as const;
