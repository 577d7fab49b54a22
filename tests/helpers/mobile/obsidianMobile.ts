/**
 * The `obsidian` module as a plugin sees it on a phone: the test module (tests/helpers/obsidian/),
 * bundled for a browser page with its vault adapter and `requestUrl` swapped for the phone's
 * (`capacitorAdapter.ts`, `requestUrl.ts`; see `mobileHarness.ts`), and `Platform` describing
 * the Android app. `FileSystemAdapter` is left out: it is the desktop adapter, and (assumed) the
 * mobile app's module does not provide it, so `adapter instanceof FileSystemAdapter` throws there
 * unless a `Platform.isDesktopApp` check comes first.
 */
import * as testModule from '../obsidian';
import { setTestPlatform } from '../obsidian/platform';
import { CapacitorAdapter } from './capacitorAdapter';

setTestPlatform('phone');

const { FileSystemAdapter: _desktopOnly, ...everywhere } = testModule;

/** What `require('obsidian')` returns to the plugin's main.js in the mobile page. */
export const obsidianMobile = Object.freeze({ ...everywhere, CapacitorAdapter });
