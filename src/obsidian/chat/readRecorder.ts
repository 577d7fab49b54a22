import type { ReadOptions, VaultChangeListener, VaultListing, VaultPort, VaultStat } from '../../core/ports';

/**
 * The vault port with a record of the notes read through it while a run works, for the "Sources"
 * under a reply. Everything is passed on unchanged; reads of the config folder and of hidden
 * files (`.git`, `.gitignore`, `.trash`: the agent's own machinery) are not notes and are not recorded.
 */
export class ReadRecorder implements VaultPort {
  private readonly sessions = new Set<Set<string>>();

  constructor(
    private readonly port: VaultPort,
    private readonly configDir: string,
  ) {}

  /** Starts recording; the function it returns stops and gives the paths read, sorted. */
  begin(): () => string[] {
    const read = new Set<string>();
    this.sessions.add(read);
    return () => {
      this.sessions.delete(read);
      return [...read].sort();
    };
  }

  get root(): string {
    return this.port.root;
  }

  async readText(path: string): Promise<string> {
    this.note(path);
    return this.port.readText(path);
  }

  async readBinary(path: string, options?: ReadOptions): Promise<Uint8Array> {
    this.note(path);
    return this.port.readBinary(path, options);
  }

  write(path: string, data: string): Promise<void> {
    return this.port.write(path, data);
  }

  writeBinary(path: string, data: Uint8Array): Promise<void> {
    return this.port.writeBinary(path, data);
  }

  process(path: string, fn: (current: string) => string): Promise<string> {
    return this.port.process(path, fn);
  }

  exists(path: string): Promise<boolean> {
    return this.port.exists(path);
  }

  stat(path: string): Promise<VaultStat | null> {
    return this.port.stat(path);
  }

  list(path: string): Promise<VaultListing> {
    return this.port.list(path);
  }

  mkdir(path: string): Promise<void> {
    return this.port.mkdir(path);
  }

  remove(path: string): Promise<void> {
    return this.port.remove(path);
  }

  rename(from: string, to: string): Promise<void> {
    return this.port.rename(from, to);
  }

  createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
    return this.port.createExclusive(path, data);
  }

  replace(from: string, to: string, content?: string | Uint8Array): Promise<void> {
    return this.port.replace(from, to, content);
  }

  append(path: string, data: string): Promise<void> {
    return this.port.append(path, data);
  }

  readLink(path: string): Promise<string | null> {
    return this.port.readLink(path);
  }

  onChange(listener: VaultChangeListener): () => void {
    return this.port.onChange(listener);
  }

  private note(path: string): void {
    if (this.sessions.size === 0 || !isNote(path, this.configDir)) return;
    for (const read of this.sessions) read.add(path);
  }
}

/** A note or attachment of the vault: not in the config folder, and no hidden file or folder on its way (`.git`, `.gitignore`, `.trash`). */
function isNote(path: string, configDir: string): boolean {
  const parts = path.split('/');
  return parts[0] !== configDir && !parts.some((part) => part.startsWith('.')) && !path.endsWith('.lock');
}
