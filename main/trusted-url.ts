/**
 * True only when `url` is an absolute http(s) URL on exactly the app's origin (scheme, host and port) and carries
 * no credentials. Relative, malformed and non-web URLs are never internal.
 */
export function isInternalUrl(url: unknown, appOrigin: string): boolean {
  if (typeof url !== 'string') return false;
  const target = parse(url);
  const app = parse(appOrigin);
  if (!target || !app) return false;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (target.username || target.password) return false;
  return target.origin === app.origin;
}

function parse(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
