// /dashboard/sites/new: the two-step wizard. Step 1 takes a name and shows the subdomain the
// pool reserved on arrival; step 2 takes one file or one folder. A file: submitting creates and
// publishes the site in one request (POST /api/sites), with the browser's real upload progress.
// A folder: the site is created empty on the reserved subdomain, then the folder goes out through
// the deploy API (folder/deployFolder.ts) as one deployment, with progress in files and bytes; if
// that fails, the site stays (pending, nothing live) and pressing Create Site again publishes to
// it. The last step, Deploy, shows the live site and its publish check, with a link to its page.
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { ArrowLeft, ArrowRight, Rocket } from "lucide-react";
import { CreateSiteFields, SITE_TEXT, type ReserveSubdomainResponse, type SiteResponse, type UploadResponse } from "../../../common/sites";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { FOLDER_TEXT, isZipUpload, MAX_UPLOAD_BYTES } from "../../../common/uploads";
import { BasicInfoStep, type SubdomainState, type WizardFields } from "../../components/sites/BasicInfoStep";
import { StepIndicator, WIZARD_STEPS } from "../../components/sites/StepIndicator";
import { CreatedStep } from "../../components/sites/CreatedStep";
import { UploadStep } from "../../components/sites/UploadStep";
import type { UploadPhase } from "../../components/sites/UploadProgress";
import { upload as uploadSite } from "../../components/sites/createSite";
import { deployFolder, type FolderPhase } from "../../components/sites/folder/deployFolder";
import { FolderProblem, type PickedFolder } from "../../components/sites/folder/readFolder";
import { useFolderReader } from "../../components/sites/folder/useFolderReader";
import type { DroppedFolder } from "../../components/ui/DropZone";
import { hostOf } from "../../components/sites/siteList";
import { checkUpload } from "../../components/sites/uploadCheck";
import { basicsProblem, FILE_REQUIRED, sitesHost, type ToastText } from "../../components/sites/wizard";
import { Button } from "../../components/ui/Button";
import { api, ApiError, errorDescription } from "../../lib/api";
import { uploadFile } from "../../lib/upload";
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
    body: "Add the file or folder to publish. It goes live the moment the upload finishes.",
  },
] as const;

export function NewSite() {
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
  const [folder, setFolder] = useState<PickedFolder | null>(null);
  const { reading, read } = useFolderReader((picked) => {
    setFile(null);
    setFolder(picked);
  });
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [folderPhase, setFolderPhase] = useState<FolderPhase | null>(null);
  // The site a folder's first try created: every later try publishes to it (its subdomain is
  // bound now), and says so when it fails.
  const [createdEmpty, setCreatedEmpty] = useState<SiteResponse | null>(null);
  const [failure, setFailure] = useState<ToastText | null>(null);
  // Set once the site is created and live: the wizard's last step shows it and its check.
  const [created, setCreated] = useState<SiteResponse | null>(null);
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
  const maxBytes = stats.data ? stats.data.max_file_bytes : MAX_UPLOAD_BYTES;

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
    if (created) {
      heading.current?.focus();
      return;
    }
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
  }, [step, created]);

  const busy = phase !== null || folderPhase !== null;

  // Leaving mid-upload would silently cancel it.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [busy]);

  function chooseFiles(files: File[]) {
    const first = files[0];
    if (!first) return;
    if (files.length > 1) toast.message("Only the first file is used", { description: first.name });
    const problem = checkUpload(first, maxBytes);
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      return;
    }
    setFolder(null);
    setFile(first);
  }

  // The dropped folder's contents are the site: its index.html is the home page.
  const chooseFolder = (source: DroppedFolder) => read(source, { into: null, keepFolderName: false, maxFileBytes: maxBytes });

  /** The site and its files are live: the last step shows them. */
  function done(site: SiteResponse, title: string, description?: string) {
    queryClient.setQueryData<SiteResponse>(queryKeys.site(site.id), site);
    void queryClient.invalidateQueries({ queryKey: queryKeys.sites });
    void queryClient.invalidateQueries({ queryKey: queryKeys.stats });
    queryClient.removeQueries({ queryKey: RESERVATION_KEY });
    toast.success(title, description === undefined ? undefined : { description });
    setCreated(site);
  }

  /**
   * The site as the form now describes it: created empty on the reserved subdomain the first time,
   * renamed on a later try if step 1 was changed since.
   */
  async function emptySite(fields: CreateSiteFields, signal: AbortSignal): Promise<SiteResponse> {
    const description = fields.description || undefined;
    if (!createdEmpty) {
      const site = await api<SiteResponse>("/api/sites", {
        method: "POST",
        json: { name: fields.name, description, subdomain: fields.subdomain },
        signal,
      });
      setCreatedEmpty(site);
      void queryClient.invalidateQueries({ queryKey: queryKeys.sites });
      return site;
    }
    if (createdEmpty.name === fields.name && (createdEmpty.description ?? undefined) === description) return createdEmpty;
    const renamed = await api<SiteResponse>(`/api/sites/${createdEmpty.id}`, {
      method: "PATCH",
      json: { name: fields.name, description: description ?? null },
      signal,
    });
    setCreatedEmpty(renamed);
    return renamed;
  }

  async function publishFolder(fields: CreateSiteFields, picked: PickedFolder) {
    const controller = new AbortController();
    abort.current = controller;
    setFailure(null);
    setFolderPhase({ kind: "hashing", done: { files: 0, bytes: 0 }, total: { files: picked.files.length, bytes: picked.size } });
    let site: SiteResponse | null = createdEmpty;
    try {
      site = await emptySite(fields, controller.signal);
      const deploy = await deployFolder({
        siteId: site.id,
        files: picked.files,
        folders: picked.folders,
        message: FOLDER_TEXT.note(picked.name, picked.files.length),
        signal: controller.signal,
        onPhase: setFolderPhase,
      });
      const live = await api<SiteResponse>(`/api/sites/${site.id}`);
      setFolderPhase(null);
      done(live, FOLDER_TEXT.succeeded, FOLDER_TEXT.succeededDescription(picked.files.length, deploy.deployment?.version ?? 1));
    } catch (error) {
      setFolderPhase(null);
      if (controller.signal.aborted) {
        toast.info(FOLDER_TEXT.cancelled);
        return;
      }
      const problem =
        error instanceof FolderProblem
          ? { title: error.title, description: error.description }
          : { title: site ? SITE_TEXT.uploadFailed : SITE_TEXT.createFailed, description: errorDescription(error) };
      toast.error(problem.title, { description: problem.description });
      if (site) setFailure({ title: FOLDER_TEXT.createdNotPublished(site.name), description: problem.description });
    } finally {
      abort.current = null;
    }
  }

  /** A file for the site a folder's try created: uploaded into it (a zip unpacked), as the Files tab does. */
  async function uploadInto(site: SiteResponse, chosen: File, signal: AbortSignal): Promise<SiteResponse> {
    await uploadFile<UploadResponse>(`/api/sites/${site.id}/files`, chosen, {
      fields: { extract: isZipUpload(chosen.name, chosen.type) ? "true" : undefined },
      signal,
      onProgress: (fraction) => setPhase(fraction >= 1 ? { kind: "publishing" } : { kind: "uploading", fraction }),
    });
    return api<SiteResponse>(`/api/sites/${site.id}`);
  }

  async function create(fields: CreateSiteFields) {
    if (folder) return publishFolder(fields, folder);
    if (!file) {
      toast.error(FILE_REQUIRED.title, {
        description: FILE_REQUIRED.description,
      });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: "uploading", fraction: 0 });
    setFailure(null);
    try {
      const site = createdEmpty
        ? await uploadInto(await emptySite(fields, controller.signal), file, controller.signal)
        : await uploadSite(file, fields, controller.signal, setPhase);
      setPhase(null);
      done(site, SITE_TEXT.uploadSucceeded);
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
      if (busy || reading) return;
      if (step === 0) setStep(1);
      else void create(fields);
    },
    (found) => {
      const problem = basicsProblem(found);
      if (problem) toast.error(problem.title, { description: problem.description });
      if (found.name) setFocus("name");
    },
  );

  const copy = STEP_COPY[step];
  const publishing = phase?.kind === "publishing" || folderPhase?.kind === "publishing";

  if (created)
    return (
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Create a new site</h1>
        </div>
        <div className="rounded-xl border bg-card shadow-sm">
          <div className="border-b px-5 py-5 sm:px-8">
            <StepIndicator current={WIZARD_STEPS.length} />
          </div>
          <div className="px-5 py-6 sm:px-8 sm:py-8">
            <h2 ref={heading} tabIndex={-1} className="mb-6 text-lg font-semibold tracking-tight outline-none">
              Your site is live
            </h2>
            <CreatedStep site={created} />
          </div>
        </div>
      </div>
    );

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
          <StepIndicator current={publishing ? 2 : step} />
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
              folder={folder}
              reading={reading}
              maxBytes={maxBytes}
              phase={phase}
              folderPhase={folderPhase}
              failure={failure}
              onFiles={chooseFiles}
              onFolder={(dropped) => void chooseFolder(dropped)}
              onRemove={() => {
                setFile(null);
                setFolder(null);
              }}
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
            <Button type="submit" disabled={busy || reading}>
              <Rocket aria-hidden />
              {busy ? (publishing ? "Publishing…" : folderPhase?.kind === "hashing" ? FOLDER_TEXT.hashing : "Uploading…") : "Create Site"}
            </Button>
          )}
        </div>
      </form>
    </div>
  );
}
