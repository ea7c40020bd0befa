// What the plans dialog offers an account below plans it may ask for (`choices`: Pro alone, with
// the built-in plans; `plan` is the one the dialog is about). With the operator's billing page
// (BERTH_UPGRADE_URL) it links there; without one the user asks for a plan, one button each, an
// admin answers, and until then the dialog shows the request waiting instead of the buttons.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Clock, ExternalLink, Mail, Sparkles, XCircle } from "lucide-react";
import { toast } from "sonner";
import { planNamesOr, type Plan } from "../../../common/plans";
import type { MyUpgradeRequestResponse, UpgradeRequest } from "../../../common/support";
import { DASHBOARD_SHELL_TEXT as T } from "../../../common/texts";
import { api, errorDescription } from "../../lib/api";
import { useSession } from "../../lib/session";
import { usePublicConfig } from "../../lib/usePublicConfig";
import { Button } from "../ui/Button";
import { DialogClose } from "../ui/Dialog";
import { Skeleton } from "../ui/Skeleton";
import { Spinner } from "../ui/Spinner";

export const upgradeRequestKey = ["upgrade-request"] as const;

/** The operator's billing page, with `{email}` replaced by the user's address (the one thing it may carry). */
export function billingLink(url: string, email: string | undefined): string {
  return url.replaceAll("{email}", encodeURIComponent(email ?? ""));
}

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" });

/** `focusPlan`: the dialog was opened for `plan` among several, so its action takes the focus. */
export function UpgradeAction({ plan, choices, focusPlan = false }: { plan: Plan; choices: Plan[]; focusPlan?: boolean }) {
  const config = usePublicConfig();
  const { user } = useSession();
  if (config.isPending) return <Skeleton className="mt-5 h-20 w-full" />;
  const upgradeUrl = config.data?.upgradeUrl ?? null;
  const contactEmail = config.data?.contactEmail ?? null;
  return (
    <>
      {upgradeUrl ? null : <RequestState plan={plan} choices={choices} />}
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
        {contactEmail && (
          <Button asChild variant="ghost" className="sm:mr-auto">
            <a href={`mailto:${contactEmail}?subject=${encodeURIComponent(`Berth ${plan.name}`)}`}>
              <Mail aria-hidden />
              Questions? Email the operator
            </a>
          </Button>
        )}
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {upgradeUrl ? (
          <Button asChild>
            <a href={billingLink(upgradeUrl, user?.email)} target="_blank" rel="noopener noreferrer">
              <Sparkles aria-hidden />
              {T.upgradeContinue}
              <ExternalLink aria-hidden />
            </a>
          </Button>
        ) : (
          // The dialog's plan is the main action; with several, the others sit beside it, quieter,
          // in the catalogue's order.
          (choices.includes(plan) ? choices : [plan]).map((choice) => (
            <RequestButton key={choice.id} plan={choice} primary={choice === plan} focusWhenReady={focusPlan && choice === plan} />
          ))
        )}
      </div>
    </>
  );
}

function useMyRequest() {
  return useQuery({ queryKey: upgradeRequestKey, queryFn: () => api<MyUpgradeRequestResponse>("/api/upgrade-request") });
}

/** The request waiting for an answer, or the last one declined; nothing before the first. */
function RequestState({ plan, choices }: { plan: Plan; choices: Plan[] }) {
  const mine = useMyRequest();
  const request = mine.data?.request;
  const asked = choices.find((choice) => choice.id === request?.plan) ?? plan;
  if (mine.isPending) return <Skeleton className="mt-5 h-16 w-full" />;
  if (request?.status === "pending") {
    return (
      <div role="status" className="mt-5 flex items-start gap-3 rounded-xl border border-primary/30 bg-primary/5 p-4 text-sm">
        <Clock className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        <div>
          <p className="font-medium">{T.upgradePending(asked.name)}</p>
          <p className="mt-0.5 text-muted-foreground">{T.upgradePendingBody(dateOf(request.createdAt))}</p>
        </div>
      </div>
    );
  }
  if (request?.status === "declined") {
    return (
      <div className="mt-5 flex items-start gap-3 rounded-xl bg-muted/70 p-4 text-sm">
        <XCircle className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
        <p>{T.upgradeDeclined(dateOf(request.answeredAt ?? request.createdAt))}</p>
      </div>
    );
  }
  return (
    <p className="mt-5 rounded-xl bg-muted/70 p-4 text-sm text-muted-foreground">
      {T.upgradeRequestHint(planNamesOr(choices.length > 1 ? choices : [plan]))}
    </p>
  );
}

/** `focusWhenReady`: takes the focus once, as soon as it can be pressed (it waits for the request state). */
function RequestButton({ plan, primary, focusWhenReady }: { plan: Plan; primary: boolean; focusWhenReady: boolean }) {
  const queryClient = useQueryClient();
  const mine = useMyRequest();
  const button = useRef<HTMLButtonElement>(null);
  const focused = useRef(false);
  const send = useMutation({
    mutationFn: () => api<UpgradeRequest>("/api/upgrade-request", { method: "POST", json: { plan: plan.id } }),
    onSuccess: (request) => {
      queryClient.setQueryData<MyUpgradeRequestResponse>(upgradeRequestKey, { request });
      toast.success(T.upgradeRequested, { description: T.upgradeRequestedBody });
    },
    onError: (error) => {
      toast.error(T.upgradeRequestFailed, { description: errorDescription(error) });
      // The server knows better (a request made in another tab): show its state.
      void queryClient.invalidateQueries({ queryKey: upgradeRequestKey });
    },
  });
  const disabled = send.isPending || mine.isPending;
  useEffect(() => {
    if (!focusWhenReady || disabled || focused.current) return;
    focused.current = true;
    button.current?.focus();
  }, [focusWhenReady, disabled]);
  if (mine.data?.request?.status === "pending") return null;
  return (
    <Button ref={button} variant={primary ? "default" : "outline"} onClick={() => send.mutate()} disabled={disabled}>
      {send.isPending ? <Spinner className="size-4 text-current" label="Sending the request" /> : <Sparkles aria-hidden />}
      {T.upgradeRequest(plan.name)}
    </Button>
  );
}
