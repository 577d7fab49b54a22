import { describe, expect, it } from 'vitest';
import { parseActionsResponse } from '../../../../../src/core/agent/actions/parseActions';

describe('parseActionsResponse', () => {
  it("reads the seed's example: several actions with kind, paths and content, and the think", () => {
    const parsed = parseActionsResponse(`<think>Adding a task.</think>
<actions>
  <action>
    <kind>set</kind>
    <target_path>/working_memory/user/todo/new_task</target_path>
    <content>{"task_description": "Complete project documentation", "status": "pending"}</content>
  </action>
  <action>
    <kind>ls</kind>
    <target_path>/storage/archived_data</target_path>
  </action>
  <action>
    <kind>search</kind>
    <target_path>/storage/documents</target_path>
    <content>project documentation</content>
  </action>
</actions>`);
    expect(parsed).toEqual({
      think: 'Adding a task.',
      reply: null,
      usable: true,
      actions: [
        { kind: 'set', target_path: '/working_memory/user/todo/new_task', content: '{"task_description": "Complete project documentation", "status": "pending"}', unknown: [] },
        { kind: 'ls', target_path: '/storage/archived_data', unknown: [] },
        { kind: 'search', target_path: '/storage/documents', content: 'project documentation', unknown: [] },
      ],
    });
  });

  it('reads mv with a source path, and the reply after the actions', () => {
    const parsed = parseActionsResponse('<actions><action><kind>mv</kind><source_path>/working_memory/a</source_path><target_path>/storage/b</target_path></action></actions><reply>Moved.</reply>');
    expect(parsed.actions).toEqual([{ kind: 'mv', source_path: '/working_memory/a', target_path: '/storage/b', unknown: [] }]);
    expect(parsed.reply).toBe('Moved.');
  });

  it('keeps content as written: tags, entities, CDATA, and a <reply> inside it that is not the reply', () => {
    const parsed = parseActionsResponse(
      '<actions><action><kind>set</kind><target_path>/storage/x</target_path><content>\n# Title\n<b>bold</b> &lt;3 &amp; <reply>no</reply>\n</content></action>' +
        '<action><kind>set</kind><target_path>/storage/y</target_path><content><![CDATA[a < b && </content> is text]]></content></action></actions>',
    );
    expect(parsed.actions.map((action) => action.content)).toEqual(['# Title\n<b>bold</b> <3 & <reply>no</reply>', 'a < b && </content> is text']);
    expect(parsed.reply).toBeNull();
  });

  it('forgives a missing <actions> wrapper, an unclosed block at the end, and upper-case tags', () => {
    expect(parseActionsResponse('<action><kind>get</kind><target_path>/storage/a</target_path></action>').actions).toEqual([{ kind: 'get', target_path: '/storage/a', unknown: [] }]);
    expect(parseActionsResponse('<ACTIONS><Action><KIND>rm</KIND><target_path>/working_memory/a</target_path>').actions).toEqual([{ kind: 'rm', target_path: '/working_memory/a', unknown: [] }]);
  });

  it('lists fields it does not know, and keeps the first of a repeated field', () => {
    expect(parseActionsResponse('<actions><action><kind>get</kind><kind>rm</kind><target_path>/storage/a</target_path><path>x</path></action></actions>').actions).toEqual([
      { kind: 'get', target_path: '/storage/a', unknown: ['path'] },
    ]);
  });

  it('is unusable without think, actions or reply, and never throws on garbage', () => {
    expect(parseActionsResponse('Sure, I will do that.').usable).toBe(false);
    for (const text of ['<actions>', '<action></action>', '<<<>>>', '</actions></action><content>', '<content>'.repeat(1000)]) {
      expect(() => parseActionsResponse(text)).not.toThrow();
    }
  });
});
