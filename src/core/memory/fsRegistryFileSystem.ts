import type { ForeignMemoryFile, RegistryFileSystem } from '../ports';

/** The slice of Node's `fs.promises` the registry uses (Node itself, or Electron's in desktop Obsidian). */
export interface FsPromises {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string, encoding: 'utf8'): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  readdir(path: string, options: { withFileTypes: true }): Promise<{ name: string; isFile(): boolean; isDirectory(): boolean }[]>;
  stat(path: string): Promise<{ size: number; mtimeMs: number }>;
}

/** The slice of Node's `path` the registry uses. */
export interface PathModule {
  join(...parts: string[]): string;
  dirname(path: string): string;
  relative(from: string, to: string): string;
  readonly sep: string;
}

/**
 * The registry's file operations over a Node-style `fs` and `path`, handed in by the runtime so
 * core never imports them. Hidden folders (`.git`, `.obsidian`) are never entered.
 */
export function fsRegistryFileSystem(fs: FsPromises, path: PathModule, registryFile: string): RegistryFileSystem {
  return {
    registryFile,
    async readText(file) {
      try {
        return await fs.readFile(file, 'utf8');
      } catch {
        return null;
      }
    },
    async writeText(file, text) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, text, 'utf8');
    },
    async listMarkdown(root, folder, limits) {
      const found: ForeignMemoryFile[] = [];
      const visit = async (dir: string): Promise<void> => {
        let entries;
        try {
          entries = await fs.readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          if (found.length >= limits.maxFiles) return;
          if (entry.name.startsWith('.')) continue;
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) await visit(full);
          else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
            const info = await fs.stat(full).catch(() => null);
            if (info === null || info.size > limits.maxBytes) continue;
            const text = await fs.readFile(full, 'utf8').catch(() => null);
            if (text !== null) found.push({ path: path.relative(root, full).split(path.sep).join('/'), text, mtime: info.mtimeMs });
          }
        }
      };
      await visit(path.join(root, ...folder.split('/').filter((part) => part !== '')));
      return found;
    },
  };
}
