/** What a build keeps of its output: the last 1 MiB (docs/hosting.md, "Build logs"). */
export const buildLogLimit = 1024 * 1024;

/** A build's output as it arrives, cut to its last {@link buildLogLimit} characters. */
export class BuildLog {
  private text = '';
  private changed = false;

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > buildLogLimit * 2) this.text = this.text.slice(-buildLogLimit);
    this.changed = true;
  }

  /** The kept log. */
  get value(): string {
    return this.text.length > buildLogLimit ? this.text.slice(-buildLogLimit) : this.text;
  }

  /** True once after each change: whether the stored copy is behind. */
  takeChanged(): boolean {
    const changed = this.changed;
    this.changed = false;
    return changed;
  }

  /** The last `count` lines, for `deploy.failed`. */
  lastLines(count: number): string {
    return this.value.trimEnd().split('\n').slice(-count).join('\n');
  }
}
