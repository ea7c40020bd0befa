// Every confirmation in the dashboard: a question, what will happen, Cancel and the confirming
// button. The action may be a promise; while it runs the dialog shows a spinner on the button and
// cannot be dismissed, so the outcome is never hidden. It closes once the action succeeds; a
// failure keeps it open (the person can try again or cancel) and says why in a toast.
import { useRef, useState, type ReactNode } from "react";
import { toast } from "sonner";
import { errorDescription } from "../../lib/api";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "./AlertDialog";
import { Spinner } from "./Spinner";

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the dialog, when there is one; focus returns to it on close. */
  trigger?: ReactNode;
  /** Above the title, e.g. an icon in a circle. */
  icon?: ReactNode;
  title: ReactNode;
  titleClassName?: string;
  description: ReactNode;
  /** Between the text and the buttons, e.g. a field to type a name into. */
  children?: ReactNode;
  confirmLabel: string;
  /** Read by screen readers while the action runs ("Deleting"). */
  pendingLabel: string;
  /** A red confirming button, for actions that take something away. */
  destructive?: boolean;
  /** Keeps the confirming button disabled, e.g. until a name has been typed. */
  confirmDisabled?: boolean;
  /** The toast's title when the action fails. */
  failureTitle: string;
  /** The toast's text when the action fails; the error's own message when absent. */
  failureDescription?: string;
  onConfirm: () => Promise<unknown> | void;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  icon,
  title,
  titleClassName,
  description,
  children,
  confirmLabel,
  pendingLabel,
  destructive = false,
  confirmDisabled = false,
  failureTitle,
  failureDescription,
  onConfirm,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  // The state lags a render behind; a second click in the same tick must not run it twice.
  const running = useRef(false);

  async function confirm() {
    if (running.current || confirmDisabled) return;
    running.current = true;
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch (error) {
      toast.error(failureTitle, {
        description: failureDescription ?? errorDescription(error),
      });
    } finally {
      running.current = false;
      setBusy(false);
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent>
        {/* A form, so Enter in a field of `children` confirms. It is portalled out of any form
            around the trigger, but React would still bubble its submit there: stopped here. */}
        <form
          className="flex flex-col gap-5"
          onSubmit={(event) => {
            event.preventDefault();
            event.stopPropagation();
            void confirm();
          }}
        >
          <AlertDialogHeader>
            {icon}
            <AlertDialogTitle className={titleClassName}>{title}</AlertDialogTitle>
            <AlertDialogDescription>{description}</AlertDialogDescription>
          </AlertDialogHeader>
          {children}
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={busy}>
              Cancel
            </AlertDialogCancel>
            <AlertDialogAction
              type="submit"
              variant={destructive ? "destructive" : "default"}
              disabled={busy || confirmDisabled}
              onClick={(event) => {
                // Radix would close the dialog on click; it closes when the action has succeeded.
                event.preventDefault();
                void confirm();
              }}
            >
              {busy && <Spinner className="size-4 text-current" label={pendingLabel} />}
              {confirmLabel}
            </AlertDialogAction>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
