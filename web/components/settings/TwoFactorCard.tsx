// Two-factor sign-in: its state, and the ways to turn it on, off, or get new backup codes.
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { KeyRound, ShieldCheck, ShieldOff } from "lucide-react";
import { SETTINGS_TEXT } from "../../../common/texts";
import { authClient } from "../../lib/authClient";
import { settleAuthCall, type AuthErrorLike } from "../../lib/authErrors";
import { cn } from "../../lib/cn";
import { queryKeys } from "../../lib/queries";
import { useSession } from "../../lib/session";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "../ui/Card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../ui/Dialog";
import { Skeleton } from "../ui/Skeleton";
import { BackupCodes } from "./BackupCodes";
import { PasswordDialog } from "./PasswordDialog";
import { TwoFactorSetup } from "./TwoFactorSetup";
import { twoFactorErrorMessage } from "./twoFactor";

const T = SETTINGS_TEXT.twoFactor;

type Open = "setup" | "disable" | "regenerate" | null;

function passwordError(error: AuthErrorLike): string {
  return error.code === "INVALID_PASSWORD" ? SETTINGS_TEXT.password.wrongCurrent : twoFactorErrorMessage(error);
}

export function TwoFactorCard() {
  const session = useSession();
  const queryClient = useQueryClient();
  const enabled = session.account?.twoFactorEnabled;
  const [open, setOpen] = useState<Open>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);

  async function disable(password: string): Promise<string | null> {
    const { error } = await settleAuthCall(authClient.twoFactor.disable({ password }));
    if (error) return passwordError(error);
    setOpen(null);
    toast.success(T.disabled);
    await session.refresh();
    // The server swaps this browser's session for a new one: the list's "This device" moves.
    await queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
    return null;
  }

  async function regenerate(password: string): Promise<string | null> {
    const { data, error } = await settleAuthCall(authClient.twoFactor.generateBackupCodes({ password }));
    if (error || !data) return passwordError(error ?? {});
    setOpen(null);
    setNewCodes(data.backupCodes);
    toast.success(T.regenerated);
    return null;
  }

  return (
    <Card className="flex h-full flex-col">
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <CardTitle className="text-base">{T.title}</CardTitle>
          {enabled === undefined ? (
            <Skeleton className="h-5 w-10 rounded-full" />
          ) : (
            <span
              data-testid="two-factor-status"
              className={cn(
                "shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium",
                enabled ? "bg-success/15 text-[oklch(0.42_0.12_150)]" : "bg-muted text-muted-foreground",
              )}
            >
              {enabled ? T.on : T.off}
            </span>
          )}
        </div>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        <div className="flex items-start gap-3 rounded-lg border bg-muted/40 p-4">
          <span
            className={cn(
              "flex size-9 shrink-0 items-center justify-center rounded-md",
              enabled ? "bg-success/15 text-[oklch(0.42_0.12_150)]" : "bg-background text-muted-foreground",
            )}
          >
            {enabled ? <ShieldCheck className="size-5" aria-hidden /> : <ShieldOff className="size-5" aria-hidden />}
          </span>
          <p className="text-sm leading-relaxed text-muted-foreground">{enabled ? T.onBody : T.offBody}</p>
        </div>
      </CardContent>
      <CardFooter className="flex-wrap justify-end gap-2 border-t px-6 py-4">
        {enabled ? (
          <>
            <Button variant="outline" className="w-full sm:w-auto" onClick={() => setOpen("regenerate")}>
              <KeyRound aria-hidden />
              {T.regenerate}
            </Button>
            <Button variant="outline" className="w-full text-destructive hover:text-destructive sm:w-auto" onClick={() => setOpen("disable")}>
              {T.disable}
            </Button>
          </>
        ) : (
          <Button className="w-full sm:w-auto" disabled={enabled === undefined} onClick={() => setOpen("setup")}>
            <ShieldCheck aria-hidden />
            {T.enable}
          </Button>
        )}
      </CardFooter>

      <TwoFactorSetup open={open === "setup"} onOpenChange={(next) => setOpen(next ? "setup" : null)} />
      <PasswordDialog
        open={open === "disable"}
        onOpenChange={(next) => setOpen(next ? "disable" : null)}
        title={T.disableTitle}
        description={T.disableBody}
        confirmLabel={T.disable}
        destructive
        onConfirm={disable}
      />
      <PasswordDialog
        open={open === "regenerate"}
        onOpenChange={(next) => setOpen(next ? "regenerate" : null)}
        title={T.regenerateTitle}
        description={T.regenerateBody}
        confirmLabel={T.regenerate}
        onConfirm={regenerate}
      />
      <Dialog open={newCodes !== null} onOpenChange={(next) => !next && setNewCodes(null)}>
        <DialogContent className="max-w-md" onInteractOutside={(event) => event.preventDefault()}>
          <DialogHeader>
            <DialogTitle>{T.backupTitle}</DialogTitle>
            <DialogDescription>{T.regenerated}</DialogDescription>
          </DialogHeader>
          <div className="mt-5 flex flex-col gap-5">
            {newCodes && <BackupCodes codes={newCodes} />}
            <Button type="button" onClick={() => setNewCodes(null)}>
              {T.done}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
