/**
 * An error the API answers with `{ error: { code, message, detail?, fields? } }` and the given
 * status. `detail` is the second line of a toast (the product's exact description texts); `details` maps form
 * fields to their messages.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, string>,
    readonly detail?: string,
  ) {
    super(message);
  }
}

export const notAuthenticated = () => new AppError("not_authenticated", 401, "Not authenticated");
