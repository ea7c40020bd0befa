import type { Notification } from "../../../common/notifications";
import type { NotificationRow } from "../../db/repositories/notifications";

export function presentNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    site_id: row.site_id,
    created_at: row.created_at.toISOString(),
    read_at: row.read_at?.toISOString() ?? null,
  };
}
