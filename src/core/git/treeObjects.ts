export const TREE_MODE = '40000';
export const FILE_MODE = '100644';
export const SYMLINK_MODE = '120000';

export interface TreeEntry {
  /** `100644`, `100755`, `120000` (symlink), `40000` (tree) or `160000` (submodule). */
  mode: string;
  name: string;
  oid: string;
}
