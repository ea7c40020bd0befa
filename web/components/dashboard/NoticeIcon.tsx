// A notice's icon in the feed: what it is about at a glance, coloured by whether it went well.
import { AlertTriangle, CheckCircle2, Clock, Globe, HardDrive, Link2Off, MessageSquare, Sparkles, XCircle, type LucideIcon } from "lucide-react";
import type { NotificationKind } from "../../../common/notifications";
import { cn } from "../../lib/cn";

type Tone = "good" | "bad" | "warn" | "info";

const ICONS: Record<NotificationKind, [LucideIcon, Tone]> = {
  deploy_succeeded: [CheckCircle2, "good"],
  deploy_failed: [XCircle, "bad"],
  check_problems: [AlertTriangle, "warn"],
  domain_active: [Globe, "good"],
  domain_failed: [Globe, "bad"],
  share_link_used_up: [Link2Off, "info"],
  storage_warning: [HardDrive, "warn"],
  storage_full: [HardDrive, "bad"],
  site_expiring: [Clock, "warn"],
  plan_changed: [Sparkles, "info"],
  upgrade_answered: [Sparkles, "info"],
  upgrade_requested: [Sparkles, "info"],
  support_message: [MessageSquare, "info"],
};

const TONES: Record<Tone, string> = {
  good: "bg-success/12 text-success",
  bad: "bg-destructive/10 text-destructive",
  warn: "bg-warning/15 text-amber-700",
  info: "bg-primary/10 text-primary",
};

export function NoticeIcon({ kind }: { kind: NotificationKind }) {
  const [Icon, tone] = ICONS[kind];
  return (
    <span className={cn("mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full", TONES[tone])} aria-hidden>
      <Icon className="size-4" />
    </span>
  );
}
