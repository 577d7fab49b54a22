// `npm run demo [-- <vault> [configDir]]`: copies the built plugin into <vault>/<configDir>/plugins/recursa/.
// Without a vault, into the shipped demo vault (demo-vault/), ready to open in Obsidian.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEMO_VAULT = join(dirname(fileURLToPath(import.meta.url)), '..', 'demo-vault');
const [vaultArg = DEMO_VAULT, configDir = '.obsidian'] = process.argv.slice(2);
const vault = resolve(vaultArg);
if (!existsSync(vault) || !statSync(vault).isDirectory()) {
  console.error(`Not a folder: ${vault}`);
  process.exit(1);
}
const files = ['main.js', 'manifest.json', 'styles.css'];
const missing = files.filter((file) => !existsSync(file));
if (missing.length > 0) {
  console.error(`Missing ${missing.join(', ')}: run \`npm run build\` first.`);
  process.exit(1);
}
const target = join(vault, configDir, 'plugins', 'recursa');
mkdirSync(target, { recursive: true });
for (const file of files) copyFileSync(file, join(target, file));
console.log(`Installed Recursa into ${target}. In Obsidian: Settings → Community plugins → enable Recursa.`);
