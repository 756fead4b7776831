interface Waiting<Input, Output> {
  input: Input;
  resolve: (output: Output) => void;
  reject: (error: unknown) => void;
}

export interface BatcherOptions<Input, Output> {
  /** Handles a batch; returns one result per input, in order. */
  run(inputs: Input[]): Promise<Output[]>;
  /** Largest batch handed to `run`. */
  maxBatch: number;
  /** How many batches may run at once. */
  concurrency: number;
  /**
   * When a batch fails, run each of its inputs alone, so that one bad input fails only its
   * own caller. Off: every input of a failed batch gets the batch's error.
   */
  isolateFailures?: boolean;
}

/**
 * Group commit: inputs that arrive while a batch is being handled wait and go together in
 * the next one, so N concurrent callers share one transaction (and one fsync). Under no
 * load a lone input still goes at once (on the next turn of the event loop).
 */
export class Batcher<Input, Output> {
  private readonly queue: Waiting<Input, Output>[] = [];
  private running = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: BatcherOptions<Input, Output>) {}

  add(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  get pending(): number {
    return this.queue.length + this.running;
  }

  /** Resolves once everything added so far has been handled. */
  async drain(): Promise<void> {
    if (this.queue.length === 0 && this.running === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.options.concurrency) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.queue.length > 0 && this.running < this.options.concurrency) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running += 1;
      void this.runBatch(batch).finally(() => {
        this.running -= 1;
        if (this.queue.length > 0) this.startBatches();
        else if (this.running === 0) this.notifyIdle();
      });
    }
  }

  private async runBatch(batch: Waiting<Input, Output>[]): Promise<void> {
    try {
      const outputs = await this.runInputs(batch.map((waiting) => waiting.input));
      batch.forEach((waiting, index) => waiting.resolve(outputs[index] as Output));
    } catch (error) {
      if (!this.options.isolateFailures || batch.length === 1) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      for (const waiting of batch) {
        await this.runInputs([waiting.input]).then(
          ([output]) => waiting.resolve(output as Output),
          (alone: unknown) => waiting.reject(alone),
        );
      }
    }
  }

  private async runInputs(inputs: Input[]): Promise<Output[]> {
    const outputs = await this.options.run(inputs);
    if (outputs.length !== inputs.length) throw new Error(`batch handler returned ${outputs.length} results for ${inputs.length} inputs`);
    return outputs;
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
