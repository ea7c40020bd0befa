// Full Name, Company and Website (PATCH /api/me/profile). A save puts the answer straight into
// the session, so the header's greeting and initial change at once.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import type { z } from "zod";
import { PROFILE_LIMITS, ProfileUpdate } from "../../../common/account";
import type { MeResponse } from "../../../common/api";
import { SETTINGS_TEXT } from "../../../common/texts";
import { api, ApiError } from "../../lib/api";
import { useSession } from "../../lib/session";
import { FormField, describedBy } from "../ui/FormField";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "../ui/Card";
import { Input } from "../ui/Input";
import { Skeleton } from "../ui/Skeleton";
import { Spinner } from "../ui/Spinner";

const T = SETTINGS_TEXT.profile;
type ProfileInput = z.input<typeof ProfileUpdate>;
const FIELDS = ["full_name", "company", "website"] as const;

export function ProfileForm() {
  const { profile, setMe } = useSession();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<ProfileInput, unknown, ProfileUpdate>({
    resolver: zodResolver(ProfileUpdate),
    defaultValues: { full_name: "", company: "", website: "" },
  });

  // The form shows the saved profile: on load, and again after each save.
  const saved = profile && {
    full_name: profile.full_name ?? "",
    company: profile.company ?? "",
    website: profile.website ?? "",
  };
  const loaded = saved !== null;
  const [fullName, company, website] = saved ? [saved.full_name, saved.company, saved.website] : ["", "", ""];
  useEffect(() => {
    if (loaded) reset({ full_name: fullName, company, website });
  }, [loaded, fullName, company, website, reset]);

  const save = useMutation({
    mutationFn: (values: ProfileUpdate) => api<MeResponse>("/api/me/profile", { method: "PATCH", json: values }),
    onSuccess: (me) => {
      setMe(me);
      toast.success(T.updated, { description: T.updatedDescription });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        for (const field of FIELDS) {
          const message = error.fields[field];
          if (message) setError(field, { message });
        }
      }
      toast.error(T.updateFailed, { description: T.updateFailedDescription });
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{T.title}</CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <form noValidate aria-label={T.title} onSubmit={handleSubmit((values) => save.mutate(values))}>
        <CardContent className="grid gap-5">
          {saved ? (
            <>
              <FormField id="profile-full-name" label={T.fullName} error={errors.full_name?.message}>
                <Input
                  id="profile-full-name"
                  autoComplete="name"
                  maxLength={PROFILE_LIMITS.fullName}
                  {...describedBy("profile-full-name", errors.full_name?.message)}
                  {...register("full_name")}
                />
              </FormField>
              <div className="grid gap-5 sm:grid-cols-2">
                <FormField id="profile-company" label={T.company} error={errors.company?.message}>
                  <Input
                    id="profile-company"
                    autoComplete="organization"
                    placeholder={T.companyPlaceholder}
                    maxLength={PROFILE_LIMITS.company}
                    {...describedBy("profile-company", errors.company?.message)}
                    {...register("company")}
                  />
                </FormField>
                <FormField id="profile-website" label={T.website} error={errors.website?.message}>
                  <Input
                    id="profile-website"
                    type="url"
                    inputMode="url"
                    autoComplete="url"
                    placeholder={T.websitePlaceholder}
                    maxLength={PROFILE_LIMITS.website}
                    {...describedBy("profile-website", errors.website?.message)}
                    {...register("website")}
                  />
                </FormField>
              </div>
            </>
          ) : (
            <FormSkeleton />
          )}
        </CardContent>
        <CardFooter className="justify-end border-t px-6 py-4">
          <Button type="submit" disabled={!saved || save.isPending || !isDirty} className="w-full sm:w-auto">
            {save.isPending && <Spinner className="size-4 text-current" label="Saving" />}
            {T.save}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function FormSkeleton() {
  return (
    <div className="grid gap-5" aria-hidden>
      {[0, 1].map((row) => (
        <div key={row} className="grid gap-2">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-10 w-full" />
        </div>
      ))}
    </div>
  );
}
