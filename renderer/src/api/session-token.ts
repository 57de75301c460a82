// The access token lives for the window's session only: closing the app logs the user out.
const KEY = 'trainbench.token';

export function readToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function writeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function clearToken(): void {
  sessionStorage.removeItem(KEY);
}
