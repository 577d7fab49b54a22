import { describe, expect, it } from 'vitest';
import { mergeIgnore, recursaIgnoreLines } from '../../../../src/core/git/gitignore';

describe('recursaIgnoreLines', () => {
  it('keeps out workspace state, the plugin data file and the trash under the given config folder', () => {
    const lines = recursaIgnoreLines('.config');
    expect(lines).toContain('/.config/workspace.json');
    expect(lines).toContain('/.config/workspace-mobile.json');
    expect(lines).toContain('/.config/plugins/recursa/data.json');
    expect(lines).toContain('/.trash/');
  });
});

describe('mergeIgnore', () => {
  it('writes every line into an empty file', () => {
    expect(mergeIgnore('', ['a', 'b'])).toBe("# Added by Recursa: per-device state, the plugin's secrets, trash\na\nb\n");
  });

  it('adds only the missing lines, after the existing ones, leaving them untouched', () => {
    expect(mergeIgnore('node_modules\r\na', ['a', 'b'])).toBe(
      "node_modules\r\na\n\n# Added by Recursa: per-device state, the plugin's secrets, trash\nb\n",
    );
  });

  it('returns null when nothing is missing', () => {
    expect(mergeIgnore('b\n  a  \n', ['a', 'b'])).toBeNull();
  });
});
