// The Settings tab's Schedule card (Pro): when the site expires (410 on every host afterwards)
// and when it goes live (404 before). Times are typed in the user's local time and sent as UTC.
// A Free user sees the fields disabled and a way to the plans dialog; clearing stays possible,
// so a site scheduled while on Pro can be taken off after a downgrade.
import { ProFeaturePrompt } from "./ProFeaturePrompt";
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CalendarClock } from "lucide-react";
import { toast } from "sonner";
import { PLANS } from "../../../../common/plans";
import {
  SCHEDULE_TEXT,
  UpdateScheduleRequest,
  type SiteResponse,
} from "../../../../common/sites";
import { api, ApiError, errorDescription } from "../../../lib/api";
import { queryKeys, useStats } from "../../../lib/queries";
import { Button } from "../../ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "../../ui/card";
import { FieldError } from "../../ui/field-error";
import { Input } from "../../ui/input";
import { Label } from "../../ui/label";
import { Spinner } from "../../ui/spinner";
import { siteUrl } from "./actions";
import { fromLocalInput, toLocalInput } from "./schedule";

type Field = "expiresAt" | "publishAt";
type Errors = Partial<Record<Field, string>>;

export function ScheduleCard({ site }: { site: SiteResponse }) {
  const queryClient = useQueryClient();
  const stats = useStats();
  const planId = stats.data?.plan;
  // Until the plan is known the fields wait, rather than flash an upgrade prompt at Pro users.
  const allowed = planId ? PLANS[planId].siteExpiry : false;
  const [expires, setExpires] = useState(toLocalInput(site.expires_at));
  const [publish, setPublish] = useState(toLocalInput(site.publish_at));
  const [errors, setErrors] = useState<Errors>({});

  // A save elsewhere (another tab, the event stream) shows here too.
  useEffect(() => {
    setExpires(toLocalInput(site.expires_at));
    setPublish(toLocalInput(site.publish_at));
  }, [site.expires_at, site.publish_at]);

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
      setErrors({});
      const cleared = body.expiresAt === null && body.publishAt === null;
      toast.success(cleared ? SCHEDULE_TEXT.cleared : SCHEDULE_TEXT.saved);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        setErrors({
          expiresAt: error.fields.expiresAt,
          publishAt: error.fields.publishAt,
        });
      }
      toast.error(SCHEDULE_TEXT.saveFailed, {
        description: errorDescription(error),
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = fromLocalInput(expires);
    const publishAt = fromLocalInput(publish);
    if (expiresAt === undefined || publishAt === undefined) {
      return setErrors({
        expiresAt:
          expiresAt === undefined ? SCHEDULE_TEXT.invalidTime : undefined,
        publishAt:
          publishAt === undefined ? SCHEDULE_TEXT.invalidTime : undefined,
      });
    }
    // The server's own rules, checked here first so the message sits under its field at once.
    const parsed = UpdateScheduleRequest.safeParse({ expiresAt, publishAt });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        next[field] ??= issue.message;
      }
      return setErrors(next);
    }
    save.mutate(parsed.data);
  };

  const clear = () => {
    setExpires("");
    setPublish("");
    save.mutate({ expiresAt: null, publishAt: null });
  };

  const hasSchedule = site.expires_at !== null || site.publish_at !== null;
  const disabled = !allowed || save.isPending || site.is_deleted;

  return (
    <Card>
      <form noValidate onSubmit={submit}>
        <CardHeader className="border-b">
          <CardTitle className="flex items-center gap-2 text-base">
            <CalendarClock
              className="size-4 text-muted-foreground"
              aria-hidden
            />
            Schedule
          </CardTitle>
          <CardDescription>
            Take the site offline after a date, or keep it hidden until one.
            Times are in your local time zone.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 pt-6 sm:grid-cols-2">
          <TimeField
            id="schedule-expires"
            label="Expires"
            hint='After this, every address of the site shows "This site has expired".'
            value={expires}
            onChange={(value) => {
              setExpires(value);
              setErrors((e) => ({ ...e, expiresAt: undefined }));
            }}
            error={errors.expiresAt}
            disabled={disabled}
          />
          <TimeField
            id="schedule-publish"
            label="Goes live"
            hint="Until this, the site answers as if it did not exist."
            value={publish}
            onChange={(value) => {
              setPublish(value);
              setErrors((e) => ({ ...e, publishAt: undefined }));
            }}
            error={errors.publishAt}
            disabled={disabled}
          />
          {planId && !allowed ? (
            <ProFeaturePrompt feature="Site expiry and go-live times are a Pro feature." action="Upgrade to Pro to schedule this site." planId={planId} />
          ) : null}
        </CardContent>
        <CardFooter className="flex flex-wrap justify-end gap-2 border-t pt-4">
          <Button
            type="button"
            variant="outline"
            onClick={clear}
            disabled={!hasSchedule || save.isPending || site.is_deleted}
          >
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

function TimeField({
  id,
  label,
  hint,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="datetime-local"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {hint}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
