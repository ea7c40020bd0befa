// The Settings tab's Schedule card (Pro): when the site expires (410 on every host afterwards)
// and when it goes live (404 before). Times are typed in the user's local time and sent as UTC.
// A Free user sees the fields disabled and a way to the plans dialog; clearing stays possible,
// so a site scheduled while on Pro can be taken off after a downgrade.
import { PlanFeaturePrompt } from "./PlanFeaturePrompt";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CalendarClock } from "lucide-react";
import { toast } from "sonner";
import { SCHEDULE_TEXT, type SiteResponse, type UpdateScheduleRequest } from "../../../../common/sites";
import { api, ApiError, errorDescription } from "../../../lib/api";
import { queryKeys, useStats } from "../../../lib/queries";
import { Button } from "../../ui/Button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "../../ui/Card";
import { FormField, describedBy } from "../../ui/FormField";
import { Input } from "../../ui/Input";
import { Spinner } from "../../ui/Spinner";
import { siteUrl } from "./actions";
import { ScheduleForm, toLocalInput, type ScheduleFields } from "./schedule";

export function ScheduleCard({ site }: { site: SiteResponse }) {
  const queryClient = useQueryClient();
  const stats = useStats();
  const planId = stats.data?.plan;
  // Until the plan is known the fields wait, rather than flash an upgrade prompt at Pro users.
  const allowed = stats.data?.features.siteExpiry ?? false;
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = useForm<ScheduleFields, unknown, UpdateScheduleRequest>({
    resolver: zodResolver(ScheduleForm),
    // The site as it is now: a save elsewhere (another tab, the event stream) shows here too.
    values: {
      expiresAt: toLocalInput(site.expires_at),
      publishAt: toLocalInput(site.publish_at),
    },
  });

  const save = useMutation({
    mutationFn: (body: UpdateScheduleRequest) =>
      api<SiteResponse>(siteUrl(site.id, "/schedule"), {
        method: "PATCH",
        json: body,
      }),
    onSuccess: (updated, body) => {
      queryClient.setQueryData(queryKeys.site(site.id), updated);
      void queryClient.invalidateQueries({
        queryKey: queryKeys.sites,
        exact: true,
      });
      const cleared = body.expiresAt === null && body.publishAt === null;
      toast.success(cleared ? SCHEDULE_TEXT.cleared : SCHEDULE_TEXT.saved);
    },
    onError: (error) => {
      for (const field of ["expiresAt", "publishAt"] as const) {
        const message = error instanceof ApiError ? error.fields?.[field] : undefined;
        if (message) setError(field, { message });
      }
      toast.error(SCHEDULE_TEXT.saveFailed, {
        description: errorDescription(error),
      });
    },
  });

  const submit = handleSubmit((body) => save.mutate(body));

  const clear = () => {
    setValue("expiresAt", "");
    setValue("publishAt", "");
    save.mutate({ expiresAt: null, publishAt: null });
  };

  const hasSchedule = site.expires_at !== null || site.publish_at !== null;
  const disabled = !allowed || save.isPending || site.is_deleted;

  return (
    <Card>
      <form noValidate onSubmit={submit}>
        <CardHeader className="border-b">
          <CardTitle className="flex items-center gap-2 text-base">
            <CalendarClock className="size-4 text-muted-foreground" aria-hidden />
            Schedule
          </CardTitle>
          <CardDescription>Take the site offline after a date, or keep it hidden until one. Times are in your local time zone.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 pt-6 sm:grid-cols-2">
          <FormField
            id="schedule-expires"
            label="Expires"
            hint='After this, every address of the site shows "This site has expired".'
            error={errors.expiresAt?.message}
          >
            <Input
              id="schedule-expires"
              type="datetime-local"
              disabled={disabled}
              {...describedBy("schedule-expires", errors.expiresAt?.message, true)}
              {...register("expiresAt")}
            />
          </FormField>
          <FormField
            id="schedule-publish"
            label="Goes live"
            hint="Until this, the site answers as if it did not exist."
            error={errors.publishAt?.message}
          >
            <Input
              id="schedule-publish"
              type="datetime-local"
              disabled={disabled}
              {...describedBy("schedule-publish", errors.publishAt?.message, true)}
              {...register("publishAt")}
            />
          </FormField>
          {planId && !allowed ? <PlanFeaturePrompt feature="siteExpiry" planId={planId} /> : null}
        </CardContent>
        <CardFooter className="flex flex-wrap justify-end gap-2 border-t pt-4">
          <Button type="button" variant="outline" onClick={clear} disabled={!hasSchedule || save.isPending || site.is_deleted}>
            Clear
          </Button>
          <Button type="submit" disabled={disabled}>
            {save.isPending ? <Spinner /> : null}
            Save
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
