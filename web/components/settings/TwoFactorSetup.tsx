// Turning two-factor sign-in on, in one dialog: the password (POST /two-factor/enable gives the
// otpauth:// URI and the backup codes), then the QR code and its key with a code to prove the app
// works (POST /two-factor/verify-totp turns it on), then the backup codes, shown this once.
import { useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Copy } from "lucide-react";
import { SETTINGS_TEXT } from "../../../common/texts";
import { authClient } from "../../lib/authClient";
import { settleAuthCall } from "../../lib/authErrors";
import { queryKeys } from "../../lib/queries";
import { useSession } from "../../lib/session";
import { FormField, describedBy } from "../ui/FormField";
import { Button } from "../ui/Button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../ui/Dialog";
import { Spinner } from "../ui/Spinner";
import { BackupCodes } from "./BackupCodes";
import { OtpInput } from "./OtpInput";
import { PasswordForm } from "./PasswordDialog";
import { QrCode } from "./QrCode";
import { groupSecret, secretFromTotpUri, twoFactorErrorMessage, VerifyCodeForm, type VerifyCode } from "./twoFactor";

const T = SETTINGS_TEXT.twoFactor;

type Step = { name: "password" } | { name: "scan"; totpURI: string; backupCodes: string[] } | { name: "backup"; backupCodes: string[] };

export function TwoFactorSetup({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [step, setStep] = useState<Step>({ name: "password" });
  const [busy, setBusy] = useState(false);

  function close(next: boolean) {
    if (busy) return;
    onOpenChange(next);
    if (!next) setStep({ name: "password" });
  }

  async function start(password: string): Promise<string | null> {
    const { data, error } = await settleAuthCall(authClient.twoFactor.enable({ password }));
    if (error || !data || !("totpURI" in data) || !data.totpURI) {
      return error?.code === "INVALID_PASSWORD" ? SETTINGS_TEXT.password.wrongCurrent : twoFactorErrorMessage(error);
    }
    setStep({ name: "scan", totpURI: data.totpURI, backupCodes: data.backupCodes ?? [] });
    return null;
  }

  const titles: Record<Step["name"], [string, string]> = {
    password: [T.passwordTitle, T.enablePasswordBody],
    scan: [T.scanTitle, T.scanBody],
    backup: [T.backupTitle, T.enabled],
  };
  const [title, description] = titles[step.name];

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        className="max-w-md"
        // The backup codes are shown once: a stray click outside must not lose them.
        onInteractOutside={(event) => step.name === "backup" && event.preventDefault()}
      >
        <DialogHeader>
          <StepDots current={step.name} />
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {step.name === "password" && <PasswordForm confirmLabel={T.continue} onBusyChange={setBusy} onConfirm={start} />}
        {step.name === "scan" && (
          <ScanStep totpURI={step.totpURI} onBusyChange={setBusy} onVerified={() => setStep({ name: "backup", backupCodes: step.backupCodes })} />
        )}
        {step.name === "backup" && (
          <div className="mt-5 flex flex-col gap-5">
            <BackupCodes codes={step.backupCodes} />
            <Button type="button" onClick={() => close(false)}>
              {T.done}
            </Button>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ScanStep({ totpURI, onBusyChange, onVerified }: { totpURI: string; onBusyChange: (busy: boolean) => void; onVerified: () => void }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const secret = secretFromTotpUri(totpURI) ?? "";
  const {
    control,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<VerifyCode>({
    resolver: zodResolver(VerifyCodeForm),
    defaultValues: { code: "" },
  });
  const error = errors.code?.message;
  // The sixth digit submits on its own; Enter at the same moment must not send the code twice.
  const inFlight = useRef(false);

  const onSubmit = handleSubmit(async ({ code }) => {
    if (inFlight.current) return;
    inFlight.current = true;
    onBusyChange(true);
    const { error: failure } = await settleAuthCall(authClient.twoFactor.verifyTotp({ code }));
    inFlight.current = false;
    onBusyChange(false);
    if (failure) {
      setError("code", {
        message: failure.code === "INVALID_CODE" ? SETTINGS_TEXT.twoFactor.codeInvalid : twoFactorErrorMessage(failure),
      });
      setValue("code", "");
      setFocus("code");
      return;
    }
    toast.success(T.enabled);
    await session.refresh();
    // The server swaps this browser's session for a new one: the list's "This device" moves.
    await queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
    onVerified();
  });

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(T.keyCopied);
    } catch {
      // Clipboard refused (permissions); the key is on screen to type instead.
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-5">
      <div className="flex flex-col items-center gap-4">
        <QrCode value={totpURI} label={T.qrAlt} />
        <div className="w-full text-center">
          <p className="text-xs text-muted-foreground">{T.manualEntry}</p>
          <div className="mt-2 flex items-center justify-center gap-1">
            <code
              aria-label={T.secretLabel}
              data-testid="totp-secret"
              className="select-all break-all rounded-md bg-muted px-2.5 py-1.5 font-mono text-sm font-medium tracking-wide"
            >
              {groupSecret(secret)}
            </code>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8 text-muted-foreground"
              aria-label={T.copyKey}
              onClick={() => void copySecret()}
            >
              <Copy aria-hidden />
            </Button>
          </div>
        </div>
      </div>
      <FormField id="setup-code" label={T.code} error={error}>
        <Controller
          control={control}
          name="code"
          render={({ field }) => (
            <OtpInput
              id="setup-code"
              ref={field.ref}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              onComplete={() => void onSubmit()}
              {...describedBy("setup-code", error)}
            />
          )}
        />
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting && <Spinner className="size-4 text-current" label="Verifying" />}
        {T.verify}
      </Button>
    </form>
  );
}

const STEPS: Step["name"][] = ["password", "scan", "backup"];

function StepDots({ current }: { current: Step["name"] }) {
  const index = STEPS.indexOf(current);
  return (
    <p className="mb-1 flex items-center gap-2 text-xs font-medium text-muted-foreground">
      <span className="flex gap-1" aria-hidden>
        {STEPS.map((name, i) => (
          <span key={name} className={i <= index ? "h-1.5 w-5 rounded-full bg-primary" : "h-1.5 w-5 rounded-full bg-muted"} />
        ))}
      </span>
      Step {index + 1} of {STEPS.length}
    </p>
  );
}
