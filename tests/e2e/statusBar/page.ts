// The page of tests/e2e/status-bar.test.ts: the plugin's status bar item over a real element.
import '../helpers/obsidianDomHelpers';
import { RecursaStatusBar } from '../../../src/obsidian/statusBar';

declare global {
  interface Window {
    recursaStatus: { bar: RecursaStatusBar; clicks: () => number };
  }
}

const el = document.getElementById('status');
if (el === null) throw new Error('no #status');
let clicks = 0;
window.recursaStatus = {
  bar: new RecursaStatusBar(el, () => {
    clicks++;
  }),
  clicks: () => clicks,
};
