import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The Chromium the browser tests drive: `$CHROMIUM_PATH`, else one on PATH or in the usual places.
 * Throws when there is none — a browser test never skips (`.ci/run` installs Debian's `chromium`).
 */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  const candidates = [
    ...(fromEnv === undefined || fromEnv === '' ? [] : [fromEnv]),
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => dir !== '')
      .flatMap((dir) => ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'].map((name) => join(dir, name))),
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
  ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(
    'No Chromium found (looked at $CHROMIUM_PATH, chromium/chromium-browser/google-chrome on PATH, /usr/bin/chromium). ' +
      'Install one (Debian: apt-get install chromium) or set CHROMIUM_PATH. This test never skips.',
  );
}
