// The operator's API: /api/admin/*. Everyone but an admin gets the same 404 as an unknown route
// (the admin guard). The CLI (server/cli) calls the same services.
import type { FastifyInstance } from "fastify";
import { AdminStorageResponse, AdminUser, AdminUsersQuery, AdminUsersResponse, AdminUserUpdate } from "../../../common/admin";
import type { AppContext } from "../../context";
import { deleteUser } from "../../services/admin/deleteUser";
import { listUsers } from "../../services/admin/listUsers";
import { sendPasswordReset } from "../../services/admin/sendPasswordReset";
import { storageOverview } from "../../services/admin/storageOverview";
import { updateUser } from "../../services/admin/updateUser";
import { routeGuards } from "../routeGuards";
import { parseBody, parseQuery } from "../validate";

type UserParams = { Params: { id: string } };

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get(
    "/api/admin/users",
    {
      preHandler: guard.admin,
      config: { doc: { summary: "List users", tags: ["Admin"], query: AdminUsersQuery, response: { 200: AdminUsersResponse } } },
    },
    async (request): Promise<AdminUsersResponse> => {
      return listUsers(ctx, parseQuery(request, AdminUsersQuery));
    },
  );

  app.get(
    "/api/admin/storage",
    {
      preHandler: guard.admin,
      config: { doc: { summary: "Compare stored bytes with the quotas' sum", tags: ["Admin"], response: { 200: AdminStorageResponse } } },
    },
    async (): Promise<AdminStorageResponse> => {
      return storageOverview(ctx);
    },
  );

  app.patch<UserParams>(
    "/api/admin/users/:id",
    {
      preHandler: guard.admin,
      config: {
        doc: {
          summary: "Change a user's plan, ban or admin role",
          description: "Any subset of the three. Admins named in BERTH_ADMIN_EMAILS cannot be demoted or banned here.",
          tags: ["Admin"],
          body: AdminUserUpdate,
          response: { 200: AdminUser },
        },
      },
    },
    async (request): Promise<AdminUser> => {
      return updateUser(ctx, request.user.id, request.params.id, parseBody(request, AdminUserUpdate));
    },
  );

  app.post<UserParams>(
    "/api/admin/users/:id/password-reset",
    {
      preHandler: guard.admin,
      config: { doc: { summary: "Send a user a password reset link", tags: ["Admin"], response: { 204: { description: "The mail is sent." } } } },
    },
    async (request, reply) => {
      await sendPasswordReset(ctx, request.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.delete<UserParams>(
    "/api/admin/users/:id",
    {
      preHandler: guard.admin,
      config: {
        doc: {
          summary: "Delete a user",
          description: "Deletes the account and purges its sites at once, as the worker purges deleted sites.",
          tags: ["Admin"],
          response: { 204: { description: "The user and their sites are gone." } },
        },
      },
    },
    async (request, reply) => {
      await deleteUser(ctx, request.user.id, request.params.id);
      return reply.status(204).send();
    },
  );
}
