// /dashboard/sites/new: the two-step wizard. Step 1 takes a name and shows the subdomain the
// pool reserved on arrival; step 2 takes one file, and submitting creates and publishes the site
// in one request (POST /api/sites), with the browser's real upload progress.
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { ArrowLeft, ArrowRight, Rocket } from "lucide-react";
import { CreateSiteFields, SITE_TEXT, type ReserveSubdomainResponse, type SiteResponse } from "../../../common/sites";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { MAX_UPLOAD_BYTES } from "../../../common/uploads";
import { BasicInfoStep, type SubdomainState, type WizardFields } from "../../components/sites/BasicInfoStep";
import { StepIndicator } from "../../components/sites/StepIndicator";
import { UploadStep } from "../../components/sites/UploadStep";
import type { UploadPhase } from "../../components/sites/UploadProgress";
import { upload as uploadSite } from "../../components/sites/createSite";
import { hostOf } from "../../components/sites/siteList";
import { checkUpload } from "../../components/sites/uploadCheck";
import { basicsProblem, FILE_REQUIRED, sitesHost } from "../../components/sites/wizard";
import { Button } from "../../components/ui/Button";
import { api, ApiError, errorDescription } from "../../lib/api";
import { queryKeys, useSites, useStats } from "../../lib/queries";
import { usePublicConfig } from "../../lib/usePublicConfig";

const RESERVATION_KEY = ["subdomain-reservation"] as const;

const STEP_COPY = [
  {
    title: "Basic Information",
    body: "Name your site. You can change the name and description later.",
  },
  {
    title: "Upload Content",
    body: "Add the file to publish. It goes live the moment the upload finishes.",
  },
] as const;

export function NewSite() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<0 | 1>(0);
  const {
    register,
    handleSubmit,
    setValue,
    setFocus,
    watch,
    formState: { errors },
  } = useForm<WizardFields, unknown, CreateSiteFields>({
    resolver: zodResolver(CreateSiteFields),
    defaultValues: { name: "", description: "", subdomain: "" },
    shouldFocusError: false,
  });
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const abort = useRef<AbortController | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // The server hands out the same reserved name until a site uses it, so a POST as a query is safe
  // to repeat (StrictMode, retries) and the name survives a reload of this page.
  const reservation = useQuery({
    queryKey: RESERVATION_KEY,
    queryFn: () =>
      api<ReserveSubdomainResponse>("/api/subdomains/reserve", {
        method: "POST",
      }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const config = usePublicConfig();
  const stats = useStats();
  const sites = useSites();
  const maxBytes = stats.data?.max_file_bytes ?? MAX_UPLOAD_BYTES;

  // An existing site's URL is the surest host (it has the edge's real port); before the first
  // site, the configured domain plus this page's port, which is the edge's port in production.
  const firstSite = sites.data?.[0];
  const host = firstSite
    ? hostOf(firstSite.url, firstSite.subdomain)
    : sitesHost(config.data?.sitesDomain ?? window.location.hostname, window.location.port);

  const subdomain = reservation.data?.subdomain ?? null;
  const subdomainState: SubdomainState = reservation.isError
    ? {
        status: "error",
        message: reservation.error.message,
        noSubdomains: reservation.error instanceof ApiError && reservation.error.code === "no_subdomains",
        retrying: reservation.isFetching,
      }
    : subdomain
      ? { status: "ready", subdomain }
      : { status: "loading" };

  useEffect(() => {
    document.title = `New Site · ${PRODUCT_NAME}`;
  }, []);

  // The subdomain is the pool's, not typed: the form carries it so one schema checks all three.
  useEffect(() => setValue("subdomain", subdomain ?? ""), [subdomain, setValue]);

  useEffect(() => {
    if (reservation.error)
      toast.error(SITE_TEXT.errorAssigningSubdomain, {
        description: reservation.error.message,
      });
  }, [reservation.error]);

  // Focus follows the step, so keyboard and screen-reader users land on the new content.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);

  // Leaving mid-upload would silently cancel it.
  useEffect(() => {
    if (!phase) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [phase]);

  function chooseFiles(files: File[]) {
    const first = files[0];
    if (!first) return;
    if (files.length > 1) toast.message("Only the first file is used", { description: first.name });
    const problem = checkUpload(first, maxBytes);
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      return;
    }
    setFile(first);
  }

  async function create(fields: CreateSiteFields) {
    if (!file) {
      toast.error(FILE_REQUIRED.title, {
        description: FILE_REQUIRED.description,
      });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: "uploading", fraction: 0 });
    try {
      const site = await uploadSite(file, fields, controller.signal, setPhase);
      queryClient.setQueryData<SiteResponse>(queryKeys.site(site.id), site);
      void queryClient.invalidateQueries({ queryKey: queryKeys.sites });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stats });
      queryClient.removeQueries({ queryKey: RESERVATION_KEY });
      toast.success(SITE_TEXT.uploadSucceeded);
      void navigate(`/dashboard/sites/${site.id}`);
    } catch (error) {
      setPhase(null);
      if (error instanceof ApiError && error.code === "aborted") return;
      toast.error(SITE_TEXT.createFailed, {
        description: errorDescription(error),
      });
    } finally {
      abort.current = null;
    }
  }

  const onSubmit = handleSubmit(
    (fields) => {
      if (phase) return;
      if (step === 0) setStep(1);
      else void create(fields);
    },
    (found) => {
      const problem = basicsProblem(found);
      if (problem) toast.error(problem.title, { description: problem.description });
      if (found.name) setFocus("name");
    },
  );

  const busy = phase !== null;
  const copy = STEP_COPY[step];

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div>
        <Link to="/dashboard/sites" className="inline-flex items-center gap-1.5 rounded-sm text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden />
          {DASHBOARD_TEXT.nav.sites}
        </Link>
        <h1 className="mt-3 text-2xl font-semibold tracking-tight sm:text-3xl">Create a new site</h1>
        <p className="mt-1.5 text-sm text-muted-foreground">
          Two quick steps: describe it, then upload. {PRODUCT_NAME} publishes it on its own address.
        </p>
      </div>

      <form onSubmit={onSubmit} noValidate className="rounded-xl border bg-card shadow-sm">
        <div className="border-b px-5 py-5 sm:px-8">
          <StepIndicator current={phase?.kind === "publishing" ? 2 : step} />
        </div>
        <div className="px-5 py-6 sm:px-8 sm:py-8">
          <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold tracking-tight outline-none">
            {copy.title}
          </h2>
          <p className="mt-1 mb-6 text-sm text-muted-foreground">{copy.body}</p>
          {step === 0 ? (
            <BasicInfoStep
              register={register}
              descriptionLength={(watch("description") ?? "").length}
              nameError={errors.name?.message}
              subdomain={subdomainState}
              host={host}
              onRetrySubdomain={() => void reservation.refetch()}
            />
          ) : (
            <UploadStep
              file={file}
              maxBytes={maxBytes}
              phase={phase}
              onFiles={chooseFiles}
              onRemove={() => setFile(null)}
              onCancel={() => abort.current?.abort()}
            />
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 border-t bg-muted/30 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-8">
          {step === 0 ? (
            <Button asChild variant="ghost">
              <Link to="/dashboard/sites">Cancel</Link>
            </Button>
          ) : (
            <Button type="button" variant="outline" onClick={() => setStep(0)} disabled={busy}>
              <ArrowLeft aria-hidden />
              Back
            </Button>
          )}
          {step === 0 ? (
            <Button type="submit">
              Next
              <ArrowRight aria-hidden />
            </Button>
          ) : (
            <Button type="submit" disabled={busy}>
              <Rocket aria-hidden />
              {busy ? (phase?.kind === "publishing" ? "Publishing…" : "Uploading…") : "Create Site"}
            </Button>
          )}
        </div>
      </form>
    </div>
  );
}
