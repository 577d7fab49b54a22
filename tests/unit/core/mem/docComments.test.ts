import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MEM_METHOD_NAMES } from '../../../../src/core/mem';

/**
 * The doc comment of each `mem` method is the model's reference (the prompt's API section is
 * generated from it), so each must be complete.
 */
function docOf(name: string): { summary: string; tags: Map<string, string[]>; params: string[] } {
  const file = `src/core/mem/${name}.ts`;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const fn = source.statements.find(
    (s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name,
  );
  if (!fn) throw new Error(`${file} does not declare function ${name}`);
  const [doc] = ts.getJSDocCommentsAndTags(fn).filter(ts.isJSDoc);
  const tags = new Map<string, string[]>();
  for (const tag of doc?.tags ?? []) {
    const text = ts.getTextOfJSDocComment(tag.comment) ?? '';
    tags.set(tag.tagName.text, [...(tags.get(tag.tagName.text) ?? []), ts.isJSDocParameterTag(tag) ? tag.name.getText() : text]);
  }
  const params = fn.parameters.slice(1).map((p) => p.name.getText());
  return { summary: ts.getTextOfJSDocComment(doc?.comment) ?? '', tags, params };
}

describe('mem doc comments', () => {
  it.each(MEM_METHOD_NAMES)('%s has a summary, every @param, @returns and an @example', (name) => {
    const doc = docOf(name);
    expect(doc.summary.length).toBeGreaterThan(20);
    expect(doc.tags.get('param') ?? []).toEqual(doc.params);
    expect(doc.tags.get('returns')?.[0]?.length ?? 0).toBeGreaterThan(3);
    expect(doc.tags.get('example')?.[0] ?? '').toContain(`mem.${name}(`);
  });

  it.each(MEM_METHOD_NAMES.filter((name) => name !== 'getGraphRoot'))('%s lists the error codes it throws', (name) => {
    expect(docOf(name).tags.get('throws')?.[0] ?? '').toMatch(/[A-Z][a-zA-Z]+/);
  });
});
