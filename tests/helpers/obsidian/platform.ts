import type * as Obsidian from 'obsidian';

type PlatformFlags = typeof Obsidian.Platform;

/** The desktop app on the machine running the tests. */
const DESKTOP: PlatformFlags = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: true,
  isMobileApp: false,
  isIosApp: false,
  isAndroidApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: hostPlatform() === 'darwin',
  isWin: hostPlatform() === 'win32',
  isLinux: hostPlatform() === 'linux',
  isSafari: false,
  resourcePathPrefix: 'app://recursa-test/',
};

/** The Android phone app, for code paths that must work without Node. */
const PHONE: PlatformFlags = {
  isDesktop: false,
  isMobile: true,
  isDesktopApp: false,
  isMobileApp: true,
  isIosApp: false,
  isAndroidApp: true,
  isPhone: true,
  isTablet: false,
  isMacOS: false,
  isWin: false,
  isLinux: false,
  isSafari: false,
  resourcePathPrefix: 'file:///',
};

/** Obsidian's `Platform`: the desktop app's values unless a test switched it with `setTestPlatform`. */
export const Platform: PlatformFlags = { ...DESKTOP };

/**
 * Test-only (not part of the `obsidian` module): makes `Platform` describe the desktop app or a
 * phone. Code that reads `Platform` when it runs sees the change; reset with `'desktop'` after.
 */
export function setTestPlatform(kind: 'desktop' | 'phone'): void {
  Object.assign(Platform, kind === 'desktop' ? DESKTOP : PHONE);
}

/** Node's `process.platform`; in a browser page (no `process`), Linux, where the browser tests run. */
function hostPlatform(): string {
  return (globalThis as { process?: { platform?: string } }).process?.platform ?? 'linux';
}
