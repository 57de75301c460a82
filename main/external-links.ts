export type OpenExternal = (url: string) => Promise<void> | void;

/** Longest URL handed to the operating system; anything longer is refused rather than truncated. */
const MAX_URL_LENGTH = 8192;

/** The normalised http(s) URL to open outside the app, or null when `value` must not be opened. */
export function externalUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // user:pass@host is a classic way to disguise the real host in a link.
  if (url.username || url.password) return null;
  return url.href;
}

/** Opens `value` with `open` (the system browser) when it is a plain http(s) URL; resolves whether it did. */
export async function openExternalUrl(value: unknown, open: OpenExternal): Promise<boolean> {
  const url = externalUrl(value);
  if (!url) return false;
  await open(url);
  return true;
}
