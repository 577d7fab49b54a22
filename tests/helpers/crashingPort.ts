import type { ReadOptions, VaultListing, VaultPort, VaultStat, VaultChangeListener } from '../../src/core/ports';

/** The error a `CrashingPort` throws when the simulated process dies. */
export class SimulatedCrash extends Error {
  constructor(readonly step: number) {
    super(`simulated crash at write step ${step}`);
  }
}

/**
 * A vault port that "dies" at the Nth change it is asked to make: that change is torn (a write
 * leaves the first half of its bytes) or not made at all, and it and every later call throw.
 * Reads pass through untouched until then.
 */
export class CrashingPort implements VaultPort {
  private steps = 0;
  private crashAt = Number.POSITIVE_INFINITY;
  private dead = false;

  constructor(private readonly inner: VaultPort) {}

  get root(): string {
    return this.inner.root;
  }

  /** Arms the crash for the `step`-th change from now (0 = the next one). */
  crashAfter(step: number): void {
    this.steps = 0;
    this.crashAt = step;
  }

  /** Changes made since the crash was armed. */
  get changesMade(): number {
    return this.steps;
  }

  readText(path: string): Promise<string> {
    return this.alive(() => this.inner.readText(path));
  }
  readBinary(path: string, options?: ReadOptions): Promise<Uint8Array> {
    return this.alive(() => this.inner.readBinary(path, options));
  }
  exists(path: string): Promise<boolean> {
    return this.alive(() => this.inner.exists(path));
  }
  stat(path: string): Promise<VaultStat | null> {
    return this.alive(() => this.inner.stat(path));
  }
  list(path: string): Promise<VaultListing> {
    return this.alive(() => this.inner.list(path));
  }
  readLink(path: string): Promise<string | null> {
    return this.alive(() => this.inner.readLink(path));
  }
  onChange(listener: VaultChangeListener): () => void {
    return this.inner.onChange(listener);
  }

  write(path: string, data: string): Promise<void> {
    return this.change(() => this.inner.write(path, data), () => this.inner.write(path, data.slice(0, Math.floor(data.length / 2))));
  }
  writeBinary(path: string, data: Uint8Array): Promise<void> {
    return this.change(() => this.inner.writeBinary(path, data), () => this.inner.writeBinary(path, data.slice(0, Math.floor(data.byteLength / 2))));
  }
  process(path: string, fn: (current: string) => string): Promise<string> {
    return this.change(() => this.inner.process(path, fn));
  }
  mkdir(path: string): Promise<void> {
    return this.change(() => this.inner.mkdir(path));
  }
  remove(path: string): Promise<void> {
    return this.change(() => this.inner.remove(path));
  }
  rename(from: string, to: string): Promise<void> {
    return this.change(() => this.inner.rename(from, to));
  }
  createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
    return this.change(
      () => this.inner.createExclusive(path, data),
      () => this.inner.createExclusive(path, data.slice(0, Math.floor(data.length / 2))),
    );
  }
  /** One rename where the platform allows it: a crash leaves it not made at all. */
  replace(from: string, to: string, content?: string | Uint8Array): Promise<void> {
    return this.change(() => this.inner.replace(from, to, content));
  }
  append(path: string, data: string): Promise<void> {
    return this.change(() => this.inner.append(path, data), () => this.inner.append(path, data.slice(0, Math.floor(data.length / 2))));
  }

  private async alive<T>(action: () => Promise<T>): Promise<T> {
    if (this.dead) throw new SimulatedCrash(this.steps);
    return action();
  }

  private async change<T>(action: () => Promise<T>, torn?: () => Promise<unknown>): Promise<T> {
    if (this.dead) throw new SimulatedCrash(this.steps);
    if (this.steps++ === this.crashAt) {
      this.dead = true;
      await torn?.();
      throw new SimulatedCrash(this.crashAt);
    }
    return action();
  }
}
