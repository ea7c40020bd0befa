import { z } from "zod";
import { CONTACT_FIELD_MAX } from "./limits";
import { CONTACT_TEXT } from "./texts";
import { isOneLine } from "./names";

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

export const ContactRequest = z.object({
  // Name and subject head the operator's mail ("From: name <address>", "Subject: …"), where a
  // line break would let a visitor write lines that look like the mail's own.
  name: required(CONTACT_TEXT.nameRequired, CONTACT_FIELD_MAX.name).refine(isOneLine, "Name must be a single line, without control characters"),
  email: z
    .string({ error: CONTACT_TEXT.emailRequired })
    .trim()
    .min(1, CONTACT_TEXT.emailRequired)
    .max(CONTACT_FIELD_MAX.email, CONTACT_TEXT.emailInvalid)
    .pipe(z.email(CONTACT_TEXT.emailInvalid)),
  subject: required(CONTACT_TEXT.subjectRequired, CONTACT_FIELD_MAX.subject).refine(
    isOneLine,
    "Subject must be a single line, without control characters",
  ),
  message: required(CONTACT_TEXT.messageRequired, CONTACT_FIELD_MAX.message),
});
export type ContactRequest = z.infer<typeof ContactRequest>;

export const ContactResponse = z.object({ ok: z.literal(true) });
export type ContactResponse = z.infer<typeof ContactResponse>;
