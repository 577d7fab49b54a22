import { throwIfCancelled } from '../errors';
import type { ReadOptions, VaultChangeListener, VaultListing, VaultPort, VaultStat } from '../ports';
import { utf8Length } from '../text/decodeText';
import type { RunScope } from './runScope';

/**
 * The vault as one `mem` call of a sandbox run sees it: every operation first checks that the run
 * is still going (`Cancelled` otherwise), and every write is charged to the run's write budget
 * before it is done (`WriteLimit`, with nothing written, when it would pass the limit).
 *
 * One per call: once the call has changed something, it is no longer cancelled half-way, so a
 * multi-step change (a folder rename, say) is never left half-done by a Stop.
 */
export class RunVault implements VaultPort {
  private changed = false;

  constructor(
    private readonly vault: VaultPort,
    private readonly scope: RunScope,
  ) {}

  get root(): string {
    return this.vault.root;
  }

  async readText(path: string): Promise<string> {
    this.check();
    return this.vault.readText(path);
  }

  async readBinary(path: string, options?: ReadOptions): Promise<Uint8Array> {
    this.check();
    return this.vault.readBinary(path, options);
  }

  async write(path: string, data: string): Promise<void> {
    this.beginChange(path, utf8Length(data));
    return this.vault.write(path, data);
  }

  async writeBinary(path: string, data: Uint8Array): Promise<void> {
    this.beginChange(path, data.byteLength);
    return this.vault.writeBinary(path, data);
  }

  async process(path: string, fn: (current: string) => string): Promise<string> {
    this.check();
    // Charged inside `fn`: a refused write throws there, and `process` then writes nothing.
    return this.vault.process(path, (current) => {
      const next = fn(current);
      this.beginChange(path, utf8Length(next));
      return next;
    });
  }

  async exists(path: string): Promise<boolean> {
    this.check();
    return this.vault.exists(path);
  }

  async stat(path: string): Promise<VaultStat | null> {
    this.check();
    return this.vault.stat(path);
  }

  async list(path: string): Promise<VaultListing> {
    this.check();
    return this.vault.list(path);
  }

  async mkdir(path: string): Promise<void> {
    this.beginChange(path, 0);
    return this.vault.mkdir(path);
  }

  async remove(path: string): Promise<void> {
    this.beginChange(path, 0);
    return this.vault.remove(path);
  }

  async rename(from: string, to: string): Promise<void> {
    this.beginChange(to, 0);
    return this.vault.rename(from, to);
  }

  async createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
    this.beginChange(path, typeof data === 'string' ? utf8Length(data) : data.byteLength);
    return this.vault.createExclusive(path, data);
  }

  async replace(from: string, to: string, content?: string | Uint8Array): Promise<void> {
    this.beginChange(to, 0);
    return this.vault.replace(from, to, content);
  }

  async append(path: string, data: string): Promise<void> {
    this.beginChange(path, utf8Length(data));
    return this.vault.append(path, data);
  }

  async readLink(path: string): Promise<string | null> {
    this.check();
    return this.vault.readLink(path);
  }

  onChange(listener: VaultChangeListener): () => void {
    return this.vault.onChange(listener);
  }

  private check(): void {
    if (!this.changed) throwIfCancelled(this.scope.signal);
  }

  /** Before a change: the run must still be going (unless this call already changed something), and the bytes must fit the budget. */
  private beginChange(path: string, bytes: number): void {
    this.check();
    this.scope.writeBudget?.spend(path, bytes);
    this.changed = true;
  }
}
