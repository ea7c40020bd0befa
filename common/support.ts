// Help and upgrades: the support form of /dashboard/help, the admin's inbox of contact and support
// messages, and requests for a higher plan when the operator has no billing page (BERTH_UPGRADE_URL unset).
import { z } from "zod";
import { pageQueryField } from "./api";
import { ContactRequest } from "./contact";
import { CONTACT_FIELD_MAX } from "./limits";

export const CONTACT_MESSAGE_KINDS = ["contact", "support"] as const;
export type ContactMessageKind = (typeof CONTACT_MESSAGE_KINDS)[number];

export const UPGRADE_REQUEST_STATUSES = ["pending", "approved", "declined"] as const;
export type UpgradeRequestStatus = (typeof UPGRADE_REQUEST_STATUSES)[number];

/** Support messages per signed-in account an hour: the contact form's allowance, counted per account. */
export const SUPPORT_LIMIT = { window: 60 * 60, max: 10 } as const;

/**
 * POST /api/support. The sender is the signed-in account: its name and verified address go on the
 * message, so a reply reaches the account's owner and nobody can send in someone else's name.
 */
export const SupportRequest = ContactRequest.pick({ subject: true, message: true });
export type SupportRequest = z.infer<typeof SupportRequest>;

export const SupportResponse = z.object({ ok: z.literal(true) });
export type SupportResponse = z.infer<typeof SupportResponse>;

// ── The admin's inbox ─────────────────────────────────────────────────────────

export const ADMIN_MESSAGES_PAGE_SIZE = 20;

export const AdminMessage = z.object({
  id: z.string(),
  kind: z.enum(CONTACT_MESSAGE_KINDS).describe("contact: the public contact form; support: the help page, from a signed-in account."),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  userId: z.string().nullable().describe("The sender's account, for support messages (null once the account is deleted)."),
  createdAt: z.string(),
  deliveredAt: z.string().nullable().describe("When it was mailed to BERTH_CONTACT_EMAIL; null when that is unset."),
  deliveryError: z.string().nullable(),
  handledAt: z.string().nullable(),
  reply: z.object({ text: z.string(), sentAt: z.string(), by: z.string().nullable().describe("The replying admin's e-mail.") }).nullable(),
});
export type AdminMessage = z.infer<typeof AdminMessage>;

/** GET /api/admin/messages?page=. */
export const AdminMessagesQuery = z.object({
  page: pageQueryField(`From 1; ${ADMIN_MESSAGES_PAGE_SIZE} messages a page, newest first.`),
});
export type AdminMessagesQuery = z.infer<typeof AdminMessagesQuery>;

export const AdminMessagesResponse = z.object({
  messages: z.array(AdminMessage),
  total: z.number().int(),
  unhandled: z.number().int().describe("Messages no admin has marked handled (or replied to)."),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminMessagesResponse = z.infer<typeof AdminMessagesResponse>;

/** PATCH /api/admin/messages/:messageId. */
export const AdminMessageUpdate = z.object({ handled: z.boolean({ error: "Say whether the message is handled" }) });
export type AdminMessageUpdate = z.infer<typeof AdminMessageUpdate>;

export const REPLY_MAX = CONTACT_FIELD_MAX.message;

/** POST /api/admin/messages/:messageId/reply: mailed as text/plain to the sender; marks the message handled. */
export const AdminMessageReply = z.object({
  message: z.string({ error: "Write a reply" }).trim().min(1, "Write a reply").max(REPLY_MAX, `Must be at most ${REPLY_MAX} characters`),
});
export type AdminMessageReply = z.infer<typeof AdminMessageReply>;

// ── Upgrade requests ──────────────────────────────────────────────────────────

export const UpgradeRequest = z.object({
  id: z.string(),
  status: z.enum(UPGRADE_REQUEST_STATUSES),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
  plan: z
    .string()
    .nullable()
    .describe(
      "The id of the plan asked for (GET /api/config); null only for a request made before requests named one, on a server with no upgradeTo.",
    ),
});
export type UpgradeRequest = z.infer<typeof UpgradeRequest>;

/** POST /api/upgrade-request. Without `plan`, the catalogue's upgradeTo is asked for. */
export const UpgradeRequestBody = z.object({
  plan: z
    .string({ error: "Name a plan by its id" })
    .trim()
    .min(1, "Name a plan by its id")
    .max(100, "Must be at most 100 characters")
    .optional()
    .describe("The id of a plan listed after the account's own in GET /api/config; the catalogue's upgradeTo when left out."),
});
export type UpgradeRequestBody = z.infer<typeof UpgradeRequestBody>;

/** GET /api/upgrade-request: the account's latest request, if any. */
export const MyUpgradeRequestResponse = z.object({ request: UpgradeRequest.nullable() });
export type MyUpgradeRequestResponse = z.infer<typeof MyUpgradeRequestResponse>;

export const AdminUpgradeRequest = UpgradeRequest.extend({
  user: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    plan: z.string().describe("The id of one of the server's plans (GET /api/config)."),
  }),
});
export type AdminUpgradeRequest = z.infer<typeof AdminUpgradeRequest>;

export const ADMIN_UPGRADE_PAGE_SIZE = 20;

/** GET /api/admin/upgrade-requests?page=: pending requests, oldest first (the first asked, the first answered). */
export const AdminUpgradeRequestsQuery = z.object({
  page: pageQueryField(`From 1; ${ADMIN_UPGRADE_PAGE_SIZE} requests a page, oldest first.`),
});
export type AdminUpgradeRequestsQuery = z.infer<typeof AdminUpgradeRequestsQuery>;

export const AdminUpgradeRequestsResponse = z.object({
  requests: z.array(AdminUpgradeRequest),
  total: z.number().int().describe("Pending requests."),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminUpgradeRequestsResponse = z.infer<typeof AdminUpgradeRequestsResponse>;

/** POST /api/admin/upgrade-requests/:requestId/answer. */
export const AdminUpgradeAnswer = z.object({
  decision: z.enum(["approve", "decline"], { error: "Choose approve or decline" }),
});
export type AdminUpgradeAnswer = z.infer<typeof AdminUpgradeAnswer>;
