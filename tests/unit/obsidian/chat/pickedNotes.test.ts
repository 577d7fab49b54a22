import { describe, expect, it } from 'vitest';
import { countTokens } from '../../../../src/core/tokens/countTokens';
import { attachedPaths, formatTokens, pickedContext } from '../../../../src/obsidian/chat/pickedNotes';

describe('pickedContext', () => {
  it('is null when nothing is attached', () => {
    expect(pickedContext([], new Map(), countTokens)).toBeNull();
  });

  it('lists every path and includes the text of notes within the budget', () => {
    const sam = '# Sam\n\nWorks on Alpha.\n';
    const context = pickedContext(
      [
        { path: 'People/Sam.md', kind: 'note', tokens: 0 },
        { path: 'Projects', kind: 'folder', tokens: 0 },
      ],
      new Map([['People/Sam.md', sam]]),
      countTokens,
    );
    expect(context).toContain('- People/Sam.md\n- Projects/ (folder)');
    expect(context).toContain(`<note path="People/Sam.md">\n${sam}\n</note>`);
  });

  describe('when the notes pass the budget', () => {
    it('sends the ones that fit, and names the others to be read with mem', () => {
      const long = 'word '.repeat(400);
      const short = 'A short note.';
      const context = pickedContext(
        [
          { path: 'Long.md', kind: 'note', tokens: 0 },
          { path: 'Short.md', kind: 'note', tokens: 0 },
        ],
        new Map([
          ['Long.md', long],
          ['Short.md', short],
        ]),
        countTokens,
        countTokens(short) + 10,
      );
      expect(context).toContain('Too long to include here (read them if needed): Long.md');
      expect(context).toContain('<note path="Short.md">');
      expect(context).not.toContain('<note path="Long.md">');
    });
  });
});

describe('attachedPaths', () => {
  it('reads back the paths pickedContext listed', () => {
    const context = pickedContext(
      [
        { path: 'A.md', kind: 'note', tokens: 0 },
        { path: 'Folder', kind: 'folder', tokens: 0 },
      ],
      new Map([['A.md', '- not a path\n']]),
      countTokens,
    );
    expect(attachedPaths(context ?? '')).toEqual(['A.md', 'Folder/']);
  });

  it('is empty for text it did not make', () => {
    expect(attachedPaths('- Some.md')).toEqual([]);
  });
});

describe('formatTokens', () => {
  it('reads as a person counts', () => {
    expect([formatTokens(1), formatTokens(850), formatTokens(1234)]).toEqual(['1 token', '850 tokens', '1.2k tokens']);
  });
});
