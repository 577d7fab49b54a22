/** Random lower-case hex, from the platform's cryptographic generator (Web Crypto, everywhere core runs). */
export function randomHex(chars: number): string {
  const bytes = new Uint8Array(Math.ceil(chars / 2));
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, chars);
}

export function newMemoryId(): string {
  return `mem_${randomHex(16)}`;
}

/** `<folder>/YYYY-MM-DD/HHMMSS_xxxx.md`, in local time: the day the user lived, not UTC's. */
export function memoryNotePath(folder: string, at: Date, suffix: string = randomHex(4)): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const name = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}_${suffix}.md`;
  return `${folder === '' ? '' : `${folder}/`}${day}/${name}`;
}

/** A folder setting as a vault path: no leading or trailing slashes (`Memories/` -> `Memories`). */
export function folderPath(setting: string): string {
  return setting.trim().replace(/^\/+|\/+$/g, '');
}
