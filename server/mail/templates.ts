// Every message Berth sends, as plain text (text/plain only: no HTML part, so nothing a user
// typed is ever read as markup) with the link on a line of its own.
//
// Names. The account mails (confirm the address, reset the password, "someone tried to sign up")
// go to an address whose owner may never have seen the name: whoever signs up types both, so a
// name there would be a line of anyone's text in a mail from Berth. They greet no one by name.
// The notices (a failed deployment, an active domain, the weekly summary) go only to the
// confirmed owner of the account, about their own sites; they greet the owner by the name they
// gave themselves, always on one line and cut to the name's limit, whatever the row holds (site
// names likewise).
import type { MailMessage } from "./message";
import { percentChange } from "../../common/analytics";
import { oneLineName } from "../../common/names";
import { formatCount } from "../../common/format";

type Template = MailMessage & { link?: string };

/** "Hi Ada," for the account's owner; "Hi there," without a name. */
function greeting(name: string): string {
  return `Hi ${oneLineName(name) || "there"},`;
}

export function verifyEmailMessage(to: string, link: string): Template {
  return {
    to,
    link,
    subject: "Confirm your e-mail address for Berth",
    text: [
      "Hello,",
      "",
      "Thanks for signing up for Berth. Confirm your e-mail address to finish creating your account:",
      "",
      link,
      "",
      "The link is valid for 24 hours. If you did not sign up, you can ignore this message.",
      "",
      "— Berth",
    ].join("\n"),
  };
}

export function resetPasswordMessage(to: string, link: string): Template {
  return {
    to,
    link,
    subject: "Reset your Berth password",
    text: [
      "Hello,",
      "",
      "Someone asked to reset the password of your Berth account. To choose a new password, open:",
      "",
      link,
      "",
      "The link is valid for one hour and works once. If you did not ask for this, ignore this message; your password stays as it is.",
      "",
      "— Berth",
    ].join("\n"),
  };
}

/**
 * A message for the operator. A support message (the help page) comes from a signed-in account:
 * its id is named, so the operator can find it on the admin page.
 */
export function contactMessageMail(
  to: string,
  message: { name: string; email: string; subject: string; message: string },
  origin: { kind: "contact" | "support"; userId: string | null } = { kind: "contact", userId: null },
): Template {
  const support = origin.kind === "support";
  return {
    to,
    replyTo: message.email,
    subject: `[Berth ${support ? "support" : "contact"}] ${message.subject}`,
    text: [
      `From: ${message.name} <${message.email}>`,
      ...(support && origin.userId ? [`Account: ${origin.userId} (signed in)`] : []),
      `Subject: ${message.subject}`,
      "",
      message.message,
    ].join("\n"),
  };
}

/**
 * An admin's answer to a contact or support message, to the address the message gave. The
 * sender's own text is not quoted: a contact-form sender may have typed someone else's address,
 * and Berth should not mail their words to that person. Replies to it go to `replyTo` (the
 * operator's contact address, else the admin's own).
 */
export function messageReplyMail(to: string, reply: { subject: string; text: string; sentAt: Date; replyTo: string }): Template {
  return {
    to,
    replyTo: reply.replyTo,
    subject: `Re: ${oneLineName(reply.subject, 200) || "your message"}`,
    text: [
      reply.text,
      "",
      "—",
      `This answers the message sent on ${reply.sentAt.toUTCString()} with the subject “${oneLineName(reply.subject, 200)}”.`,
      "Reply to this e-mail to continue the conversation.",
    ].join("\n"),
  };
}

export function existingAccountMessage(to: string, resetLink: string): Template {
  return {
    to,
    link: resetLink,
    subject: "Someone tried to sign up for Berth with your address",
    text: [
      "Hello,",
      "",
      "Someone tried to create a Berth account with this e-mail address, but you already have one.",
      "If it was you and you have forgotten your password, you can reset it here:",
      "",
      resetLink,
      "",
      "If it was not you, no action is needed.",
      "",
      "— Berth",
    ].join("\n"),
  };
}

export function deploymentFailedMessage(
  to: string,
  notice: { name: string; siteName: string; version: number; error: string; link: string },
): Template {
  return {
    to,
    link: notice.link,
    subject: `Deployment of ${oneLineName(notice.siteName)} failed`,
    text: [
      greeting(notice.name),
      "",
      `Version ${notice.version} of your site ${oneLineName(notice.siteName)} could not be published:`,
      "",
      `  ${notice.error}`,
      "",
      "The previous version is still live. To see the site and try again, open:",
      "",
      notice.link,
      "",
      "You get this message because deployment notifications are on. You can turn them off in Settings, Notifications.",
      "",
      "— Berth",
    ].join("\n"),
  };
}

export function domainActiveMessage(to: string, notice: { name: string; siteName: string; domain: string; link: string }): Template {
  return {
    to,
    link: notice.link,
    subject: `${notice.domain} is now active`,
    text: [
      greeting(notice.name),
      "",
      `Your custom domain ${notice.domain} is set up: its DNS points to Berth and its certificate is ready.`,
      `Your site ${oneLineName(notice.siteName)} is now served at https://${notice.domain}/`,
      "",
      "To manage the site and its domains, open:",
      "",
      notice.link,
      "",
      "You get this message because domain notifications are on. You can turn them off in Settings, Notifications.",
      "",
      "— Berth",
    ].join("\n"),
  };
}

/**
 * Any other notice a user chose to get by e-mail (Settings, Notifications): the feed's title as
 * the subject, its detail, and the dashboard page it leads to.
 */
export function noticeMessage(to: string, notice: { name: string; kindLabel: string; title: string; body: string | null; link: string }): Template {
  const title = oneLineName(notice.title, 200);
  return {
    to,
    link: notice.link,
    subject: title,
    text: [
      greeting(notice.name),
      "",
      title,
      ...(notice.body ? ["", notice.body] : []),
      "",
      "To see it in your dashboard, open:",
      "",
      notice.link,
      "",
      `You get this message because you chose e-mail for "${notice.kindLabel}". You can change that in Settings, Notifications.`,
      "",
      "— Berth",
    ].join("\n"),
  };
}

/** One site's line in the weekly summary. */
export interface WeeklySummarySite {
  name: string;
  views: number;
  visitors: number;
  previousViews: number;
  /** The site's page in the dashboard. */
  link: string;
}

export function weeklySummaryMessage(
  to: string,
  summary: { name: string; weekStart: Date; weekEnd: Date; sites: readonly WeeklySummarySite[]; dashboardLink: string },
): Template {
  const views = summary.sites.reduce((sum, site) => sum + site.views, 0);
  const visitors = summary.sites.reduce((sum, site) => sum + site.visitors, 0);
  const previousViews = summary.sites.reduce((sum, site) => sum + site.previousViews, 0);
  const lastDay = new Date(summary.weekEnd.getTime() - 86_400_000);
  return {
    to,
    link: summary.dashboardLink,
    subject: `Your sites this week: ${count(views, "view")}`,
    text: [
      greeting(summary.name),
      "",
      `In the week of ${dayRange(summary.weekStart, lastDay)} (UTC), your sites had ${count(views, "page view")} from ${count(visitors, "visitor")}${totalChange(views, previousViews)}.`,
      "",
      ...summary.sites.flatMap((site) => [
        `${oneLineName(site.name)}: ${count(site.views, "view")}${siteChange(site.views, site.previousViews)}, ${count(site.visitors, "visitor")}`,
        site.link,
        "",
      ]),
      "Changes are against the week before. To see every site, open:",
      "",
      summary.dashboardLink,
      "",
      "You get this message because the weekly summary is on. You can turn it off in Settings, Notifications.",
      "",
      "— Berth",
    ].join("\n"),
  };
}

/** "1 view", "1,234 views". */
function count(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** " (+25%)", " (-10%)", " (new)" when the week before had none; nothing when neither week had any. */
function siteChange(current: number, previous: number): string {
  const change = percentChange(current, previous);
  if (change !== null) return ` (${change > 0 ? "+" : ""}${change}%)`;
  return current > 0 ? " (new)" : "";
}

function totalChange(current: number, previous: number): string {
  const change = percentChange(current, previous);
  if (change === null) return "";
  if (change === 0) return ", as many as the week before";
  return `, ${change > 0 ? "up" : "down"} ${Math.abs(change)}% on the week before`;
}

/** "16 to 22 November 2026", "30 November to 6 December 2026", "29 December 2025 to 4 January 2026". */
function dayRange(first: Date, last: Date): string {
  const part = (date: Date, options: Intl.DateTimeFormatOptions) => date.toLocaleDateString("en-GB", { ...options, timeZone: "UTC" });
  const end = part(last, { day: "numeric", month: "long", year: "numeric" });
  if (first.getUTCFullYear() !== last.getUTCFullYear()) return `${part(first, { day: "numeric", month: "long", year: "numeric" })} to ${end}`;
  if (first.getUTCMonth() !== last.getUTCMonth()) return `${part(first, { day: "numeric", month: "long" })} to ${end}`;
  return `${part(first, { day: "numeric" })} to ${end}`;
}
