// "Restore the site as it was at…": pick a moment, see which version was live then, and publish a
// new version with exactly those files (Pro). The live periods come from the server, rollbacks
// included, so the version named here is the one the server will restore.
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { HISTORY_TEXT, periodAt, RestoreAtForm, type LivePeriod, type RestoreResponse } from "../../../../common/history";
import { SITE_TEXT } from "../../../../common/sites";
import { api, errorDescription } from "../../../lib/api";
import { useLivePeriods } from "../../../lib/historyQueries";
import { useStats } from "../../../lib/queries";
import { DialogFormActions, FormDialog } from "../../ui/Dialog";
import { describedBy, FormField } from "../../ui/FormField";
import { Input } from "../../ui/Input";
import { LoadError } from "../../ui/LoadError";
import { Skeleton } from "../../ui/Skeleton";
import { refreshSite, siteUrl } from "./actions";
import { PlanFeaturePrompt } from "./PlanFeaturePrompt";

/** A Date as the picker's value: local time, to the second (a publish and a rollback can be a minute apart). */
function pickerValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

export function RestoreAtDialog({ siteId, open, onOpenChange }: { siteId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const stats = useStats();
  const allowed = stats.data?.features.pointInTimeRecovery;
  const periods = useLivePeriods(siteId, open && allowed === true);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<RestoreAtForm>({ resolver: zodResolver(RestoreAtForm), defaultValues: { at: pickerValue(new Date()) } });

  const restore = useMutation({
    mutationFn: (at: Date) => api<RestoreResponse>(siteUrl(siteId, "/history/restore-at"), { method: "POST", json: { at: at.toISOString() } }),
    onSuccess: (result) => {
      if (result.deployment.status === "failed") {
        toast.error(SITE_TEXT.deployFailed, { description: result.deployment.error ?? SITE_TEXT.tryLater });
      } else {
        toast.success(HISTORY_TEXT.restored, { description: HISTORY_TEXT.restoredAt(result.restored_version) });
      }
      onOpenChange(false);
    },
    onError: (error) => toast.error(HISTORY_TEXT.restoreFailed, { description: errorDescription(error) }),
    onSettled: () => refreshSite(queryClient, siteId),
  });

  const submit = handleSubmit(({ at }) => restore.mutate(new Date(at)));
  const chosen = watch("at");
  const error = errors.at?.message;

  let content;
  if (!stats.data) {
    content = <Skeleton className="mt-5 h-24 w-full" />;
  } else if (!allowed) {
    content = (
      <div className="mt-5">
        <PlanFeaturePrompt feature="pointInTimeRecovery" planId={stats.data.plan} />
      </div>
    );
  } else {
    content = (
      <form noValidate onSubmit={submit} className="mt-5 grid gap-5">
        <FormField id="restore-at" label="Date and time" error={error}>
          <Input
            id="restore-at"
            type="datetime-local"
            step={1}
            max={pickerValue(new Date())}
            {...describedBy("restore-at", error)}
            {...register("at")}
          />
        </FormField>
        <LiveThen periods={periods.data} failed={periods.isError} retrying={periods.isFetching} onRetry={() => void periods.refetch()} at={chosen} />
        <DialogFormActions submitLabel={HISTORY_TEXT.restoreAtConfirm} pendingLabel="Restoring" pending={restore.isPending} />
      </form>
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={restore.isPending}
      title={HISTORY_TEXT.restoreAtTitle}
      description={HISTORY_TEXT.restoreAtBody}
      className="max-w-md"
    >
      {content}
    </FormDialog>
  );
}

/** Which version the chosen moment restores, as the server will decide it. */
function LiveThen({
  periods,
  failed,
  retrying,
  onRetry,
  at,
}: {
  periods: LivePeriod[] | undefined;
  failed: boolean;
  retrying: boolean;
  onRetry: () => void;
  at: string;
}) {
  if (failed) return <LoadError inline title="Failed to load which version was live when" onRetry={onRetry} retrying={retrying} />;
  if (!periods) return <Skeleton className="h-14 w-full" />;
  const time = Date.parse(at);
  const period = Number.isNaN(time) ? undefined : periodAt(periods, new Date(time));
  let text;
  if (Number.isNaN(time)) text = HISTORY_TEXT.restoreAtInvalid;
  else if (!period) text = HISTORY_TEXT.restoreAtNothing;
  else {
    const from = new Date(period.from).toLocaleString();
    const until = period.until ? `until ${new Date(period.until).toLocaleString()}` : "and is live now";
    text = `Version ${period.version} was live then: from ${from} ${until}.${period.deployment_id ? "" : ` ${HISTORY_TEXT.versionNotKept}`}`;
  }
  return (
    <p className="rounded-lg bg-muted/70 p-3 text-sm" aria-live="polite" data-live-then>
      {text}
    </p>
  );
}
