import { useSyncExternalStore, type AnchorHTMLAttributes } from 'react';

// Routes live in the URL hash (#/products/3): the page itself is always `/`, which keeps relative asset URLs
// valid and needs nothing from the server beyond index.html.

export interface Location {
  path: string;
  query: URLSearchParams;
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};
const currentHash = () => window.location.hash;

export function parseHash(hash: string): Location {
  const raw = hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = raw.split('?', 2);
  return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(search) };
}

export function useLocation(): Location {
  return parseHash(useSyncExternalStore(subscribe, currentHash));
}

export function navigate(to: string): void {
  window.location.hash = to;
}

/** Params of `pattern` (e.g. /products/:id) in `path`, or null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const actual = have[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}

export function Link({ to, ...props }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  return <a href={`#${to}`} {...props} />;
}
