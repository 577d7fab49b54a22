/**
 * The one path policy: every vault path that reaches `mem` or the worker host goes through
 * `normalizeVaultPath`, which returns one canonical vault-relative spelling or throws
 * `PathRefusedError`. This is a security boundary; it is pure, has no platform dependency, and runs
 * in time linear in the (bounded) input, with no backtracking regular expressions.
 *
 * Rules, in order; the first one broken names the refusal (`PathRefusedError.data.rule`):
 *  1. `not-a-string`; `too-long` (over 1024 characters, or a name over 255 UTF-8 bytes);
 *     `empty` (nothing left after normalization, unless `allowRoot`; checked after step 4).
 *  2. `control-character` (C0, DEL, C1, bidi and format controls); `invalid-unicode` (a lone
 *     UTF-16 surrogate, which no file system can store as written).
 *  3. `unc` (`\\server`, `//server`, `\\?\`, `\\.\`), `absolute` (`/x`, `\x`), `drive-letter`
 *     (`C:`, `c:x`), `url` (`file:///`, `app://`, any `scheme:/`).
 *  4. Normalize: NFC, `\` → `/`, repeated `/` collapsed, `.` names dropped, trailing `/` dropped.
 *  5. `traversal`: a name made only of dots (and spaces) with at least two dots, in any spelling:
 *     plain, percent-encoded (any depth), or a Unicode look-alike that NFKC turns into dots.
 *  6. `protected-folder`: `.git`, `.trash`, the volume trash folders (`.Trash-1000`, `.Trashes`,
 *     `$RECYCLE.BIN`) and `policy.configDir` at any depth, and each of `policy.protectedFolders`
 *     as a prefix from the vault root. Compared case-insensitively after
 *     NFKC, percent-decoding, dropping invisible characters, an NTFS `:stream` suffix and trailing
 *     dots and spaces; the NTFS short name (`GIT~1`) counts as the folder.
 *  7. `forbidden-character`: one of `* " < > : | ?` in a name.
 *  8. `reserved-name`: a Windows device name (CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM0–9,
 *     LPT0–9, with or without extension, superscript digits included), case-insensitive.
 *  9. `trailing-dot-or-space`: a name ending in `.` or ` ` (Windows would silently rename it).
 */
import { PathRefusedError, type PathRule } from '../errors/PathRefusedError';
import { utf8Length } from '../text/decodeText';

/** Which folders the agent may not touch, besides the built-in `.git` and `.trash`. */
export interface PathPolicy {
  /** Obsidian's config folder (vault.configDir), usually `.obsidian`. */
  configDir: string;
  /** Extra vault folders the agent may not touch (a user setting), vault-relative. */
  protectedFolders: readonly string[];
}

/**
 * The policy of a vault with the default config folder and no extra protected folders. The
 * Obsidian runtime builds its policy from `vault.configDir`; this default is for hosts without one.
 */
export const DEFAULT_PATH_POLICY: PathPolicy = Object.freeze({
  configDir: '.obsidian',
  protectedFolders: Object.freeze([]),
});

export interface NormalizeOptions {
  /** Accept the vault root ('' , '.', '/'-free spellings like './') and return ''. Default false. */
  allowRoot?: boolean;
}

/** Longest accepted path, in UTF-16 code units, before and after normalization. */
const MAX_PATH_CHARS = 1024;
/** Longest accepted file or folder name, in UTF-8 bytes (the common file-system limit). */
const MAX_NAME_BYTES = 255;
/** Percent-decoding rounds before a name is refused as hostile; a 255-byte name needs at most 85. */
const MAX_DECODE_ROUNDS = 128;
/** Folders refused at any depth, whatever the policy says: git's data and the trash folders. */
const ALWAYS_PROTECTED = ['.git', '.trash', '.Trashes', '$RECYCLE.BIN'] as const;
/** The per-user trash folders Linux desktops make on removable volumes: `.Trash-1000`. */
const VOLUME_TRASH = /^\.trash-\d+$/;
/**
 * Characters Obsidian accepts in a file name but cannot link to (`[[a#b]]` means heading `b` of
 * `a`): refused in new names, so every note the agent creates can be linked.
 */
const UNLINKABLE_CHARACTERS = '#^[]|';
/** Characters Obsidian forbids in file names (`\` and `/` are separators by now). */
const FORBIDDEN_CHARACTERS = '*"<>:|?';
const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'CON', 'PRN', 'AUX', 'NUL', 'CONIN$', 'CONOUT$',
  ...Array.from({ length: 10 }, (_, digit) => `COM${digit}`),
  ...Array.from({ length: 10 }, (_, digit) => `LPT${digit}`),
]);
const SEPARATORS = /[/\\]/;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8');

/**
 * Returns the normalized vault-relative path, or throws PathRefusedError.
 *
 * The result is NFC, uses `/` only, has no empty, `.` or `..` names, no leading or trailing `/`,
 * and is a fixed point: normalizing it again returns it unchanged. `a/../b` is refused, never
 * resolved to `b`.
 *
 * @param input the path as the caller gave it; anything that is not a string is refused.
 * @param policy the config folder and the user's protected folders.
 * @param options `allowRoot` accepts the vault root and returns `''`.
 * @throws PathRefusedError (`code: 'PathRefused'`, `data: { path, rule }`) naming the first rule
 *   broken, in the order listed at the top of this file.
 * @example
 * normalizeVaultPath('./notes//idea.md', DEFAULT_PATH_POLICY); // 'notes/idea.md'
 * normalizeVaultPath('.git/config', DEFAULT_PATH_POLICY); // throws, rule 'protected-folder'
 */
export function normalizeVaultPath(input: unknown, policy: PathPolicy, options: NormalizeOptions = {}): string {
  if (typeof input !== 'string') {
    throw new PathRefusedError(describeNonString(input), 'not-a-string', 'a path must be a string such as "notes/idea.md".');
  }
  const refuse = (rule: PathRule, explanation: string): never => {
    throw new PathRefusedError(input, rule, explanation);
  };

  // 1. Size, checked on the raw input first so later steps only ever see bounded strings.
  if (input.length > MAX_PATH_CHARS) refuse('too-long', tooLongExplanation());
  const nfc = input.normalize('NFC');
  if (nfc.length > MAX_PATH_CHARS) refuse('too-long', tooLongExplanation());
  for (const name of nfc.split(SEPARATORS)) {
    if (utf8Length(name) > MAX_NAME_BYTES) refuse('too-long', tooLongExplanation());
  }

  // 2. Invisible characters.
  const badCharacter = findBadCharacter(nfc);
  if (badCharacter === 'control') {
    refuse('control-character', 'it contains an invisible control or text-direction character; remove it and type the name in plain text.');
  } else if (badCharacter === 'lone-surrogate') {
    refuse('invalid-unicode', 'it contains a broken Unicode character (a lone surrogate); retype the name.');
  }

  // 3. Anything that names a place outside the vault.
  const start = classifyStart(nfc);
  if (start !== undefined) refuse(start, START_EXPLANATIONS[start]);

  // 4. Normalize.
  const names: string[] = [];
  for (const name of nfc.split(SEPARATORS)) {
    if (name !== '' && name !== '.') names.push(name);
  }
  if (names.length === 0) {
    if (options.allowRoot === true) return '';
    refuse('empty', 'give a vault-relative path such as "notes/idea.md".');
  }

  // 5. Traversal, in any spelling.
  const views: string[][] = [];
  for (const name of names) {
    const pieces = canonicalPieces(name);
    if (pieces === undefined || pieces.some(isDotRun)) {
      refuse('traversal', 'paths may not climb out of a folder with ".." in any spelling; write the full path from the vault root, e.g. "notes/idea.md".');
    } else {
      views.push(pieces);
    }
  }

  // 6. Protected folders.
  const folder = findProtectedFolder(comparisonKeys(views.flat()), policy);
  if (folder !== undefined) {
    refuse('protected-folder', `it is inside "${folder}", which the agent may not read or change (git data, trash, Obsidian's config, or a folder the user protected); work elsewhere in the vault.`);
  }

  // 7–9. Names that Obsidian or Windows would refuse or rewrite.
  for (const name of names) {
    const character = findForbiddenCharacter(name);
    if (character !== undefined) {
      refuse('forbidden-character', `file and folder names may not contain ${JSON.stringify(character)} (nor any of * " < > : | ?); replace it, e.g. with "-".`);
    }
  }
  for (const name of names) {
    if (isReservedName(name)) {
      const dot = name.includes('.') ? name.indexOf('.') : name.length;
      const instead = `${name.slice(0, dot)}-note${name.slice(dot)}`;
      refuse('reserved-name', `"${name}" is a reserved device name on Windows; choose another name, e.g. "${instead}".`);
    }
  }
  for (const name of names) {
    if (name.endsWith('.') || name.endsWith(' ')) {
      refuse('trailing-dot-or-space', `"${name}" ends with a dot or a space, which Windows silently drops; remove it.`);
    }
  }

  return names.join('/');
}

/**
 * True when `path` (already normalized) is inside or equal to a protected folder; for filtering
 * listings. Uses the same comparison as `normalizeVaultPath` (case-insensitive, NFKC, percent-decoded,
 * trailing dots and spaces ignored). The vault root `''` is not protected.
 */
export function isProtectedPath(path: string, policy: PathPolicy): boolean {
  const pieces: string[] = [];
  for (const name of path.split(SEPARATORS)) pieces.push(...(canonicalPieces(name) ?? [name]));
  return findProtectedFolder(comparisonKeys(pieces), policy) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Private helpers.

const START_EXPLANATIONS: Record<'absolute' | 'unc' | 'drive-letter' | 'url', string> = {
  absolute: 'paths are relative to the vault root; drop the leading slash, e.g. "notes/idea.md".',
  unc: 'network and device paths are not allowed; use a path inside the vault, e.g. "notes/idea.md".',
  'drive-letter': 'drive letters are not allowed; use a path relative to the vault root, e.g. "notes/idea.md".',
  url: 'URLs are not vault paths; use a path relative to the vault root, e.g. "notes/idea.md".',
};

function tooLongExplanation(): string {
  return `keep the path under ${MAX_PATH_CHARS} characters and each file or folder name under ${MAX_NAME_BYTES} bytes; choose a shorter name.`;
}

/** A stand-in for `data.path` when the input is not a string; never calls the value's own code. */
function describeNonString(value: unknown): string {
  if (value === null) return '<null>';
  if (Array.isArray(value)) return '<array>';
  return `<${typeof value}>`;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F), the Arabic letter mark, line and paragraph
 * separators, bidi embeddings, overrides and isolates, the deprecated format controls
 * U+206A–U+206F, and the byte-order mark.
 */
function isControl(unit: number): boolean {
  return (
    unit <= 0x1f ||
    (unit >= 0x7f && unit <= 0x9f) ||
    unit === 0x061c ||
    unit === 0x200e ||
    unit === 0x200f ||
    (unit >= 0x2028 && unit <= 0x202e) ||
    (unit >= 0x2066 && unit <= 0x206f) ||
    unit === 0xfeff
  );
}

function findBadCharacter(text: string): 'control' | 'lone-surrogate' | undefined {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (isControl(unit)) return 'control';
    if (isHighSurrogate(unit)) {
      if (!isLowSurrogate(text.charCodeAt(i + 1))) return 'lone-surrogate';
      i++;
    } else if (isLowSurrogate(unit)) {
      return 'lone-surrogate';
    }
  }
  return undefined;
}

function isSeparator(unit: number): boolean {
  return unit === 0x2f || unit === 0x5c;
}

function isAsciiLetter(unit: number): boolean {
  return (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);
}

function isSchemeCharacter(unit: number): boolean {
  return isAsciiLetter(unit) || (unit >= 0x30 && unit <= 0x39) || unit === 0x2b || unit === 0x2d || unit === 0x2e;
}

/** Rule 3, on the raw (NFC) input: what the start of the path says about where it points. */
function classifyStart(text: string): 'absolute' | 'unc' | 'drive-letter' | 'url' | undefined {
  const first = text.charCodeAt(0);
  if (isSeparator(first)) return isSeparator(text.charCodeAt(1)) ? 'unc' : 'absolute';
  if (!isAsciiLetter(first)) return undefined;
  if (text.charCodeAt(1) === 0x3a) return 'drive-letter';
  let i = 1;
  while (i < text.length && isSchemeCharacter(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === 0x3a && isSeparator(text.charCodeAt(i + 1)) ? 'url' : undefined;
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** One round of percent-decoding over UTF-8; malformed sequences stay as written or become U+FFFD. */
function percentDecode(text: string): string {
  const bytes = utf8Encoder.encode(text);
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    const high = byte === 0x25 ? hexValue(bytes[i + 1]) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
    if (low >= 0) {
      out[length++] = high * 16 + low;
      i += 2;
    } else {
      out[length++] = byte;
    }
  }
  return utf8Decoder.decode(out.subarray(0, length));
}

/** Characters some file systems ignore when comparing names (HFS+ famously) or that render as nothing. */
function isIgnorable(unit: number): boolean {
  return (
    unit === 0x00ad ||
    unit === 0x034f ||
    (unit >= 0x200b && unit <= 0x200d) ||
    (unit >= 0x2060 && unit <= 0x2064) ||
    (unit >= 0xfe00 && unit <= 0xfe0f)
  );
}

function withoutIgnorables(text: string): string {
  let kept = '';
  for (let i = 0; i < text.length; i++) {
    if (!isIgnorable(text.charCodeAt(i))) kept += text[i];
  }
  return kept;
}

/**
 * Every way a name could be read by some layer: NFKC and percent-decoding repeated until nothing
 * changes, invisible characters dropped, then split on any separator the decoding revealed.
 * `undefined` when decoding does not settle (only hostile names nest that deep).
 */
function canonicalPieces(name: string): string[] | undefined {
  if (isPlainAscii(name)) return [name]; // NFKC, decoding and ignorables cannot change it
  let view = name.normalize('NFKC');
  let settled = false;
  for (let round = 0; round < MAX_DECODE_ROUNDS && !settled; round++) {
    if (!view.includes('%')) {
      settled = true;
    } else {
      const decoded = percentDecode(view).normalize('NFKC');
      settled = decoded === view;
      view = decoded;
    }
  }
  if (!settled) return undefined;
  return withoutIgnorables(view).split(SEPARATORS);
}

/** Printable ASCII without `%`: the common case, which every canonical view leaves unchanged. */
function isPlainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit > 0x7e || unit === 0x25) return false;
  }
  return true;
}

/** A name of dots and spaces only, with at least two dots: `..`, `...`, `. .`, `.. `. */
function isDotRun(piece: string): boolean {
  let dots = 0;
  for (let i = 0; i < piece.length; i++) {
    const unit = piece.charCodeAt(i);
    if (unit === 0x2e) dots++;
    else if (unit !== 0x20) return false;
  }
  return dots >= 2;
}

/**
 * The comparison key of one canonical name: case-folded both ways (so `ı`, `ſ` and `K` meet their
 * ASCII twins), without an NTFS `:stream` suffix, and without trailing dots and spaces.
 */
function foldName(piece: string): string {
  let key = isPlainAscii(piece) ? piece.toLowerCase() : piece.toUpperCase().toLowerCase().normalize('NFKC');
  const colon = key.indexOf(':');
  if (colon >= 0) key = key.slice(0, colon);
  let end = key.length;
  while (end > 0 && (key.charCodeAt(end - 1) === 0x2e || key.charCodeAt(end - 1) === 0x20)) end--;
  return key.slice(0, end);
}

/** Comparison keys of canonical pieces, without the empty and `.` names a decoding may reveal. */
function comparisonKeys(pieces: readonly string[]): string[] {
  const keys: string[] = [];
  for (const piece of pieces) {
    if (piece === '' || piece === '.') continue;
    const key = foldName(piece);
    if (key !== '') keys.push(key);
  }
  return keys;
}

/** The comparison keys of a protected folder as the user or Obsidian spelled it. */
function folderKeys(folder: string): string[] {
  const pieces: string[] = [];
  for (const name of folder.normalize('NFC').split(SEPARATORS)) pieces.push(...(canonicalPieces(name) ?? [name]));
  return comparisonKeys(pieces);
}

/** A protected folder's comparison key, and the start of its NTFS short name (`git~`). */
interface FolderKey {
  key: string;
  shortBase: string;
}

function toFolderKey(key: string): FolderKey {
  let base = '';
  for (let i = 0; i < key.length && base.length < 6; i++) {
    if (key[i] !== '.' && key[i] !== ' ') base += key[i];
  }
  return { key, shortBase: base === '' ? '' : `${base}~` };
}

/**
 * True when `key` names the folder whose key is `folder`: equal, or its NTFS 8.3 short name
 * (`git~1` for `.git`, `obsidi~2` for `.obsidian`). The hashed short names Windows falls back to
 * after four collisions (`GI1F2A~1`) are not recognized.
 */
function namesFolder(key: string, folder: FolderKey): boolean {
  if (key === folder.key) return true;
  const { shortBase } = folder;
  if (shortBase === '' || key.length <= shortBase.length || !key.startsWith(shortBase)) return false;
  for (let i = shortBase.length; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    if (unit < 0x30 || unit > 0x39) return false;
  }
  return true;
}

/** The protected folder (as spelled in the policy) that `keys` fall inside, if any. */
function findProtectedFolder(keys: readonly string[], policy: PathPolicy): string | undefined {
  const anywhere: string[] = [...ALWAYS_PROTECTED];
  const fromRoot: string[] = [...policy.protectedFolders];
  // Obsidian's config folder is one name; should a host ever give a nested one, protect it from the root.
  if (folderKeys(policy.configDir).length > 1) fromRoot.push(policy.configDir);
  else anywhere.push(policy.configDir);

  for (const folder of anywhere) {
    const [single, ...rest] = folderKeys(folder);
    if (single === undefined || rest.length > 0) continue;
    const folderKey = toFolderKey(single);
    if (keys.some((key) => namesFolder(key, folderKey))) return folder;
  }
  const volumeTrash = keys.find((key) => VOLUME_TRASH.test(key));
  if (volumeTrash !== undefined) return volumeTrash;
  for (const folder of fromRoot) {
    const prefix = folderKeys(folder);
    if (prefix.length === 0 || prefix.length > keys.length) continue;
    if (prefix.every((folderKey, i) => namesFolder(keys[i] ?? '', toFolderKey(folderKey)))) return folder;
  }
  return undefined;
}

/**
 * The first character of `name` that a wikilink cannot contain (`#`, `^`, `[`, `]`, `|`), if any.
 * Only new names are held to this: existing notes with such names stay readable.
 */
export function findUnlinkableCharacter(name: string): string | undefined {
  for (const character of name) {
    if (UNLINKABLE_CHARACTERS.includes(character)) return character;
  }
  return undefined;
}

function findForbiddenCharacter(name: string): string | undefined {
  for (const character of name) {
    if (FORBIDDEN_CHARACTERS.includes(character)) return character;
  }
  return undefined;
}

/** `CON`, `con.md`, `Com¹.txt`, `NUL .tar.gz`: the part before the first dot, trailing spaces dropped. */
function isReservedName(name: string): boolean {
  const view = name.normalize('NFKC');
  const dot = view.indexOf('.');
  let end = dot >= 0 ? dot : view.length;
  while (end > 0 && view.charCodeAt(end - 1) === 0x20) end--;
  if (end < 3 || end > 7) return false;
  return RESERVED_NAMES.has(view.slice(0, end).toUpperCase());
}
