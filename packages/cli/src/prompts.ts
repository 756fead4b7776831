import * as clack from '@clack/prompts';
import { ServiceError } from '@svc/protocol';
import type { Io } from './io.js';

export interface Choice<Value extends string> {
  readonly value: Value;
  readonly label: string;
  readonly hint?: string;
}

/**
 * Questions for people at a terminal, with @clack/prompts. They read the command's stdin
 * and draw on its stderr, so stdout keeps only the command's output. Cancelling (Ctrl-C or
 * Esc) is `cancelled`: the command stops before it has changed anything.
 */
export class Prompter {
  constructor(private readonly io: Io) {}

  private get streams() {
    return { input: this.io.stdin, output: this.io.stderr };
  }

  intro(title: string): void {
    clack.intro(title, { output: this.io.stderr });
  }

  outro(message: string): void {
    clack.outro(message, { output: this.io.stderr });
  }

  async text(options: { message: string; defaultValue?: string | undefined; check?: (value: string) => string | undefined }): Promise<string> {
    const answer = await clack.text({
      ...this.streams,
      message: options.message,
      ...(options.defaultValue === undefined ? {} : { placeholder: options.defaultValue, defaultValue: options.defaultValue }),
      validate: (value) => {
        const text = (value ?? '').trim() === '' ? (options.defaultValue ?? '') : (value ?? '').trim();
        if (text === '') return 'a value is required';
        return options.check?.(text);
      },
    });
    return settled(answer).trim();
  }

  async select<Value extends string>(options: { message: string; choices: readonly Choice<Value>[]; initialValue?: Value | undefined }): Promise<Value> {
    const answer = await clack.select<Value>({
      ...this.streams,
      message: options.message,
      options: options.choices.map((choice) => ({ value: choice.value, label: choice.label, ...(choice.hint ? { hint: choice.hint } : {}) })) as clack.Option<Value>[],
      ...(options.initialValue === undefined ? {} : { initialValue: options.initialValue }),
    });
    return settled(answer);
  }

  async confirm(message: string, initialValue = false): Promise<boolean> {
    return settled(await clack.confirm({ ...this.streams, message, initialValue }));
  }

  async password(message: string): Promise<string> {
    return settled(await clack.password({ ...this.streams, message, validate: (value) => ((value ?? '') === '' ? 'a value is required' : undefined) }));
  }
}

function settled<T>(answer: T): Exclude<T, symbol> {
  if (clack.isCancel(answer)) throw new ServiceError('cancelled', 'cancelled; nothing was changed');
  return answer as Exclude<T, symbol>;
}
