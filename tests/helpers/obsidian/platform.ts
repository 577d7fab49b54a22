import type * as Obsidian from 'obsidian';

/** Obsidian's `Platform`, with the values of the desktop app on the machine running the tests. */
export const Platform: typeof Obsidian.Platform = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: true,
  isMobileApp: false,
  isIosApp: false,
  isAndroidApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: process.platform === 'darwin',
  isWin: process.platform === 'win32',
  isLinux: process.platform === 'linux',
  isSafari: false,
  resourcePathPrefix: 'app://recursa-test/',
};
