// The operator's API: /api/admin/*. Everyone but an admin gets the same 404 as an unknown route
// (the admin guard). The CLI (server/cli) calls the same services.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AdminUserUpdate, type AdminStorageResponse, type AdminUser, type AdminUsersResponse } from "../../../common/admin";
import type { AppContext } from "../../context";
import { deleteUser } from "../../services/admin/deleteUser";
import { listUsers } from "../../services/admin/listUsers";
import { sendPasswordReset } from "../../services/admin/sendPasswordReset";
import { storageOverview } from "../../services/admin/storageOverview";
import { updateUser } from "../../services/admin/updateUser";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";

const AdminUsersQuery = z.object({
  search: z.string().max(200, "Search for at most 200 characters").optional(),
  page: z.coerce.number({ error: "Page must be a number" }).int("Page must be a whole number").min(1, "Page starts at 1").max(1_000_000).optional(),
});

type UserParams = { Params: { id: string } };

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get("/api/admin/users", { preHandler: guard.admin }, async (request): Promise<AdminUsersResponse> => {
    const query = parseBody(AdminUsersQuery, request.query);
    return listUsers(ctx, query);
  });

  app.get("/api/admin/storage", { preHandler: guard.admin }, async (): Promise<AdminStorageResponse> => {
    return storageOverview(ctx);
  });

  app.patch<UserParams>("/api/admin/users/:id", { preHandler: guard.admin }, async (request): Promise<AdminUser> => {
    const update = parseBody(AdminUserUpdate, request.body);
    return updateUser(ctx, request.user.id, request.params.id, update);
  });

  app.post<UserParams>("/api/admin/users/:id/password-reset", { preHandler: guard.admin }, async (request, reply) => {
    await sendPasswordReset(ctx, request.user.id, request.params.id);
    return reply.status(204).send();
  });

  app.delete<UserParams>("/api/admin/users/:id", { preHandler: guard.admin }, async (request, reply) => {
    await deleteUser(ctx, request.user.id, request.params.id);
    return reply.status(204).send();
  });
}
