// A small fetch wrapper for the app's JSON API: throws the server's error message on failure.
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

export async function apiFetch<T = unknown>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string; field?: string } } | null;
  if (!response.ok) {
    const e = body?.error;
    throw new ApiRequestError(response.status, e?.code ?? "error", e?.message ?? `HTTP ${response.status}`, e?.field);
  }
  return body as T;
}
