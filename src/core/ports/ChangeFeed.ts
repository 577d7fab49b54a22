import type { VaultChange, VaultChangeListener } from './vault';

/**
 * The listener list behind a port's `onChange`. A listener that throws is reported and skipped:
 * the change has already happened, so it must not fail the operation that made it.
 */
export class ChangeFeed {
  private readonly listeners = new Set<VaultChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  /** Adds a listener; returns the function that removes it. */
  add(listener: VaultChangeListener): () => boolean {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  emit(change: VaultChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
