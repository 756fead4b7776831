import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineCommand, type ContextOf } from './command.js';
import { commandsFor } from './commands/index.js';
import { buildProgram } from './program.js';
import type { Io } from './io.js';

const example = defineCommand({
  name: 'example',
  summary: 'an example',
  arguments: { id: { description: 'required' }, file: { description: 'optional', optional: true } },
  flags: {
    url: { flag: '--url <url>', description: 'text' },
    events: { flag: '--events <patterns...>', description: 'a list' },
    status: { flag: '--status <status>', description: 'one of', choices: ['pending', 'failed'] },
    format: { flag: '--format <format>', description: 'with a default', defaultValue: 'csv', choices: ['csv', 'ndjson'] },
    dryRun: { flag: '--dry-run', description: 'a switch' },
  },
  run: () => Promise.resolve(0),
});

const io = { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: process.cwd() } as unknown as Io;
const hooks = { onExit: () => undefined, json: false };

describe('command specs', () => {
  it('type each flag and argument from how the spec spells it', () => {
    type Context = ContextOf<typeof example>;
    expectTypeOf<Context['options']['url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Context['options']['events']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Context['options']['status']>().toEqualTypeOf<'pending' | 'failed' | undefined>();
    expectTypeOf<Context['options']['format']>().toEqualTypeOf<'csv' | 'ndjson'>();
    expectTypeOf<Context['options']['dryRun']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Context['options']['json']>().toEqualTypeOf<boolean>();
    expectTypeOf<Context['args']['id']>().toEqualTypeOf<string>();
    expectTypeOf<Context['args']['file']>().toEqualTypeOf<string | undefined>();
  });

  it('refuse a flag whose key is not the name the parsed value is found under', () => {
    const wrong = defineCommand({ name: 'wrong', summary: 'wrong key', flags: { dry_run: { flag: '--dry-run', description: 'x' } }, run: () => Promise.resolve(0) });
    expect(() => buildProgram(io, [wrong], hooks)).toThrow('the flag --dry-run of `wrong` must have the key dryRun, not dry_run');
  });

  it('hold for every svc command, serve with its flags and without', async () => {
    for (const argv of [['serve'], ['forms', 'list']]) {
      const commands = await commandsFor(argv);
      expect(() => buildProgram(io, commands, hooks)).not.toThrow();
    }
  });

  it('hand the handler its arguments by name and its flags parsed', async () => {
    let seen: unknown;
    const probe = defineCommand({ ...example, run: (context) => Promise.resolve(void (seen = { args: context.args, options: context.options })) });
    await buildProgram(io, [probe], hooks).parseAsync(['node', 'svc', 'example', 'wh_1', '--events', 'a', 'b', '--dry-run', '--status', 'failed']);
    expect(seen).toEqual({
      args: { id: 'wh_1', file: undefined },
      options: { events: ['a', 'b'], dryRun: true, status: 'failed', format: 'csv', json: false },
    });
  });
});
