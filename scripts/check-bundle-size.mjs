// main.js is all the community installer fetches besides manifest.json and styles.css, and it
// must stay small enough to load quickly on a phone.
import { statSync } from 'node:fs';

// tests/integration/build-artifacts.test.ts holds the build to the same limit.
const LIMIT = 2_000_000;
const size = statSync('main.js').size;
const mb = (bytes) => `${(bytes / 1_000_000).toFixed(2)} MB`;
if (size > LIMIT) {
  console.error(`main.js is ${mb(size)}, over the ${mb(LIMIT)} limit.`);
  process.exit(1);
}
console.log(`main.js is ${mb(size)} (limit ${mb(LIMIT)}).`);
