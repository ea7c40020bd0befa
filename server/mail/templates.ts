// Every message Berth sends, as plain text with the link on a line of its own.
import type { MailMessage } from "./message";

type Template = MailMessage & { link?: string };

export function verifyEmailMessage(to: string, name: string, link: string): Template {
  return {
    to,
    link,
    subject: "Confirm your e-mail address for Berth",
    text: [
      `Hi ${name || "there"},`,
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

export function resetPasswordMessage(to: string, name: string, link: string): Template {
  return {
    to,
    link,
    subject: "Reset your Berth password",
    text: [
      `Hi ${name || "there"},`,
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

export function contactMessageMail(
  to: string,
  message: { name: string; email: string; subject: string; message: string },
): Template {
  return {
    to,
    replyTo: message.email,
    subject: `[Berth contact] ${message.subject}`,
    text: [
      `From: ${message.name} <${message.email}>`,
      `Subject: ${message.subject}`,
      "",
      message.message,
    ].join("\n"),
  };
}

export function existingAccountMessage(to: string, name: string, resetLink: string): Template {
  return {
    to,
    link: resetLink,
    subject: "Someone tried to sign up for Berth with your address",
    text: [
      `Hi ${name || "there"},`,
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
    subject: `Deployment of ${notice.siteName} failed`,
    text: [
      `Hi ${notice.name || "there"},`,
      "",
      `Version ${notice.version} of your site ${notice.siteName} could not be published:`,
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

export function domainActiveMessage(
  to: string,
  notice: { name: string; siteName: string; domain: string; link: string },
): Template {
  return {
    to,
    link: notice.link,
    subject: `${notice.domain} is now active`,
    text: [
      `Hi ${notice.name || "there"},`,
      "",
      `Your custom domain ${notice.domain} is set up: its DNS points to Berth and its certificate is ready.`,
      `Your site ${notice.siteName} is now served at https://${notice.domain}/`,
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
