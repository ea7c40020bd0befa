// The dashboard's fetch wrapper: JSON in, JSON out, and every failure as an ApiError carrying
// the server's { error: { code, message, fields } }.
import { SITE_TEXT } from "../../common/sites";
import { AUTH_TEXT } from "../../common/texts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** The toast's second line, in the product's exact wording, when the server gives one. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * Shows a refused request's field messages under the form's own fields: `fieldOf` maps the
 * server's field name ("siteId", "events.0") to the form's, or undefined for one it does not show.
 */
export function showFieldErrors<F extends string>(
  error: unknown,
  fieldOf: (serverField: string) => F | undefined,
  setError: (field: F, error: { message: string }) => void,
): void {
  const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
  for (const [field, message] of Object.entries(fields)) {
    const target = fieldOf(field);
    if (target && message) setError(target, { message });
  }
}

export async function api<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: "same-origin",
      ...rest,
      headers: { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  } catch {
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection and try again.");
  }
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    throw toApiError(response.status, body);
  }
  return body as T;
}

type ErrorBody = { error?: { code?: string; message?: string; detail?: string; fields?: Record<string, string> } };

export function toApiError(status: number, body: unknown): ApiError {
  const error = (body as ErrorBody | undefined)?.error;
  return new ApiError(status, error?.code ?? "error", error?.message ?? AUTH_TEXT.unexpectedError, error?.fields, error?.detail);
}

/** The text under a failure toast: the server's message, plus its detail when it gives one. */
export function errorDescription(error: unknown): string {
  if (error instanceof ApiError) {
    if (!error.detail) return error.message;
    const message = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
    return `${message} ${error.detail}`;
  }
  return error instanceof Error ? error.message : SITE_TEXT.tryLater;
}
