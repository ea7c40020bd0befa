/** An error the API answers with `{ error: { code, message } }` and the given status. */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notAuthenticated = () => new AppError("not_authenticated", 401, "Not authenticated");
