import { defineCommand } from '../../command.js';

export const validateCommand = defineCommand<object>({
  name: 'validate',
  summary: 'check service.json offline, with the line and column of every error',
  description:
    'Check a service.json offline: strict JSON syntax, every rule of the schema, unique form slugs, hostnames and keys.\n' +
    'Each error is printed as FILE:LINE:COLUMN error POINTER MESSAGE. Exit 0 when valid, 1 when invalid or unreadable.',
  arguments: [{ name: '[file]', description: 'the file to check (default: ./service.json)' }],
  examples: ['svc validate', 'svc validate sites/blog/service.json', 'svc validate --json'],
  // Loaded when run: the schema validator is not needed by the other commands' starts.
  run: async (context) => (await import('./run-validate.js')).runValidate(context),
});
