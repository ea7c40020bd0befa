// A destructive action behind a confirmation: the outline button that opens it, and the dialog
// that stays open (and cannot be dismissed) while the action runs.
import type { ReactNode } from "react";
import { Trash2 } from "lucide-react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "./alert-dialog";
import { Button } from "./button";
import { Spinner } from "./spinner";

export function ConfirmDelete({
  open,
  onOpenChange,
  pending,
  label,
  srLabel,
  title,
  titleClassName,
  description,
  confirmLabel,
  pendingLabel,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  /** The button's text ("Remove", "Delete"); `srLabel` names the item for screen readers. */
  label: string;
  srLabel: string;
  title: ReactNode;
  titleClassName?: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <Button
        variant="outline"
        size="sm"
        onClick={() => onOpenChange(true)}
        disabled={pending}
        className="text-destructive hover:text-destructive"
      >
        <Trash2 aria-hidden />
        {label}
        <span className="sr-only"> {srLabel}</span>
      </Button>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle className={titleClassName}>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className="bg-destructive text-destructive-foreground hover:bg-destructive/90"
            disabled={pending}
            onClick={(event) => {
              // Stays open until the action has finished; the caller closes it on success.
              event.preventDefault();
              onConfirm();
            }}
          >
            {pending && <Spinner className="size-4 text-current" label={pendingLabel} />}
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
