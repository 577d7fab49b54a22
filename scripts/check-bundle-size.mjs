// main.js is all the community installer fetches besides manifest.json and styles.css, and it
// must stay small enough to load quickly on a phone.
import { statSync } from 'node:fs';

const LIMIT = 2.5 * 1024 * 1024;
const size = statSync('main.js').size;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
if (size > LIMIT) {
  console.error(`main.js is ${mib(size)}, over the ${mib(LIMIT)} limit.`);
  process.exit(1);
}
console.log(`main.js is ${mib(size)} (limit ${mib(LIMIT)}).`);
