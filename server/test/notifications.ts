// Reading a user's notification feed in tests, through the API as the dashboard does.
import type { Notification, NotificationKind, NotificationListResponse } from "../../common/notifications";
import type { TestClient } from "./support";

/** The newest 50 notices of the client's user, newest first. */
export async function feedOf(client: TestClient): Promise<Notification[]> {
  const response = await client.get("/api/notifications?limit=50");
  if (response.statusCode !== 200) throw new Error(`feed failed: ${response.statusCode} ${response.body}`);
  return response.json<NotificationListResponse>().notifications;
}

/** The notices of one kind, newest first. */
export async function noticesOf(client: TestClient, kind: NotificationKind): Promise<Notification[]> {
  return (await feedOf(client)).filter((notice) => notice.kind === kind);
}
