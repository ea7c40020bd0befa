// The operator's API: /api/admin/*. Everyone but an admin gets the same 404 as an unknown route
// (requireAdmin). The CLI (server/cli) calls the same services.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AdminUserUpdate, type AdminStorageResponse, type AdminUser, type AdminUsersResponse } from "../../../common/admin";
import type { AppContext } from "../../context";
import { deleteUser } from "../../services/admin/deleteUser";
import { listUsers } from "../../services/admin/listUsers";
import { sendPasswordReset } from "../../services/admin/sendPasswordReset";
import { storageOverview } from "../../services/admin/storageOverview";
import { updateUser } from "../../services/admin/updateUser";
import { requireAdmin } from "../session";
import { parseBody } from "../validate";

const AdminUsersQuery = z.object({
  search: z.string().max(200, "Search for at most 200 characters").optional(),
  page: z.coerce.number({ error: "Page must be a number" }).int("Page must be a whole number").min(1, "Page starts at 1").max(1_000_000).optional(),
});

type UserParams = { Params: { id: string } };

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/api/admin/users", async (request): Promise<AdminUsersResponse> => {
    await requireAdmin(ctx, request);
    const query = parseBody(AdminUsersQuery, request.query);
    return listUsers(ctx, query);
  });

  app.get("/api/admin/storage", async (request): Promise<AdminStorageResponse> => {
    await requireAdmin(ctx, request);
    return storageOverview(ctx);
  });

  app.patch<UserParams>("/api/admin/users/:id", async (request): Promise<AdminUser> => {
    const admin = await requireAdmin(ctx, request);
    const update = parseBody(AdminUserUpdate, request.body);
    return updateUser(ctx, admin.id, request.params.id, update);
  });

  app.post<UserParams>("/api/admin/users/:id/password-reset", async (request, reply) => {
    const admin = await requireAdmin(ctx, request);
    await sendPasswordReset(ctx, admin.id, request.params.id);
    return reply.status(204).send();
  });

  app.delete<UserParams>("/api/admin/users/:id", async (request, reply) => {
    const admin = await requireAdmin(ctx, request);
    await deleteUser(ctx, admin.id, request.params.id);
    return reply.status(204).send();
  });
}
