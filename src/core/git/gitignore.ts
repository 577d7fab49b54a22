/**
 * The lines Recursa keeps out of history in a vault it starts a repository for: Obsidian's
 * per-device workspace state, the plugin's own data file (it holds API keys), installed plugins'
 * code (built bundles and their source maps: large, re-downloaded by Obsidian, and a commit per
 * update), the local trash, and files operating systems scatter into folders. Other plugins'
 * settings (`data.json`) and manifests stay versioned.
 */
export function recursaIgnoreLines(configDir: string): string[] {
  return [
    `/${configDir}/workspace.json`,
    `/${configDir}/workspace-mobile.json`,
    `/${configDir}/workspaces.json`,
    `/${configDir}/plugins/recursa/data.json`,
    // The plugin's own state: the search index (a cache, tens of MB in a large vault), the
    // conversations and the action log stay out of the vault's history.
    `/${configDir}/plugins/recursa/graph-index*`,
    `/${configDir}/plugins/recursa/conversations/`,
    `/${configDir}/plugins/recursa/action-log.json`,
    `/${configDir}/plugins/*/main.js`,
    `/${configDir}/plugins/**/*.map`,
    '/.trash/',
    '.DS_Store',
    'Thumbs.db',
    'desktop.ini',
  ];
}

/**
 * Adds the lines of `wanted` that `existing` lacks, after a comment naming who added them;
 * returns `null` when nothing is missing. Existing lines are never changed or reordered.
 */
export function mergeIgnore(existing: string, wanted: readonly string[]): string | null {
  const present = new Set(existing.split(/\r?\n/).map((line) => line.trim()));
  const missing = wanted.filter((line) => !present.has(line));
  if (missing.length === 0) return null;
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  const gap = existing === '' ? '' : '\n';
  return `${existing}${separator}${gap}# Added by Recursa: per-device state, the plugin's secrets, trash\n${missing.join('\n')}\n`;
}
