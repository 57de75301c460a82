/** A thin HTTP client for tests: real requests, JSON in and out, the envelope left as it comes. */
export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** A multipart form; File/Blob values are sent as files. */
  form?: FormData;
  /** A raw body sent as it is. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class ApiClient {
  constructor(public baseUrl: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.raw !== undefined) body = options.raw as BodyInit;
    else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, signal: options.signal });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, options?: RequestOptions) => this.request('POST', path, options);
  put = (path: string, options?: RequestOptions) => this.request('PUT', path, options);
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);

  async login(username: string, password: string): Promise<string> {
    const res = await this.post('/api/auth/login', { body: { username, password } });
    if (res.status !== 200) throw new Error(`login failed for ${username}: ${res.status} ${res.text}`);
    return res.body.data.token as string;
  }
}
