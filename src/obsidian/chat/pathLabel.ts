/**
 * A vault path as a label that never loses the file name: the folder part shrinks with an
 * ellipsis (CSS `.recursa-path-folder`), the name stays whole. The full path is the tooltip.
 */
export function renderPathLabel(parent: HTMLElement, path: string): HTMLElement {
  const label = parent.createSpan({ cls: 'recursa-path', attr: { title: path } });
  const slash = path.lastIndexOf('/');
  if (slash >= 0) label.createSpan({ cls: 'recursa-path-folder', text: path.slice(0, slash + 1) });
  label.createSpan({ cls: 'recursa-path-name', text: (slash >= 0 ? path.slice(slash + 1) : path).replace(/\.md$/, '') });
  return label;
}
