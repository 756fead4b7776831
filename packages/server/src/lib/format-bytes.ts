/** `512 B`, `12.3 KiB`, `4.0 MiB`, `1.0 GiB`: one way of writing a size, shared with the CLI. */
export { formatSize as formatBytes } from '@svc/protocol';
