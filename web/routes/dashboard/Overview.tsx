// The overview before sites exist: what to do first, and where to get help. No figures until
// there is something real to count.
import { useEffect } from "react";
import { Link } from "react-router";
import {
  ArrowUpRight,
  BookOpen,
  FolderPlus,
  Share2,
  Sparkles,
  UploadCloud,
  type LucideIcon,
} from "lucide-react";
import { PLANS, formatPlanBytes } from "../../../common/plans";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { UpgradeDialog } from "../../components/dashboard/UpgradeDialog";
import { Button } from "../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../components/ui/card";
import { usePublicConfig } from "../../lib/usePublicConfig";

export function Overview() {
  const config = usePublicConfig();
  const sitesDomain = config.data?.sitesDomain ?? "your-domain";
  const free = PLANS.free;

  useEffect(() => {
    document.title = `${DASHBOARD_TEXT.nav.dashboard} · ${PRODUCT_NAME}`;
  }, []);

  const steps: { Icon: LucideIcon; title: string; body: string }[] = [
    {
      Icon: FolderPlus,
      title: "Create a site",
      body: `Give it a name. ${PRODUCT_NAME} assigns it its own address, such as abcde.${sitesDomain}.`,
    },
    {
      Icon: UploadCloud,
      title: "Upload your content",
      body: `Drop an HTML file, a PDF or a .zip of a static site — up to ${formatPlanBytes(free.maxFileBytes)} per file on the ${free.name} plan.`,
    },
    {
      Icon: Share2,
      title: "Share the link",
      body: "Your site is live as soon as the upload finishes. Send the link to anyone; update it whenever you like.",
    },
  ];

  return (
    <div className="flex flex-col gap-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
          Welcome to {PRODUCT_NAME}
        </h1>
        <p className="mt-2 max-w-2xl text-sm leading-relaxed text-muted-foreground sm:text-base">
          Publish an HTML page, a PDF or a zipped static site and share it in
          seconds. Your sites and their statistics will appear here once you've
          created your first one.
        </p>
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Get started</CardTitle>
            <CardDescription>
              Three steps from a file on your computer to a link you can share.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ol className="flex flex-col">
              {steps.map(({ Icon, title, body }, index) => (
                <li key={title} className="relative flex gap-4 pb-7 last:pb-0">
                  {index < steps.length - 1 && (
                    <span
                      className="absolute left-5 top-11 bottom-1 w-px bg-border"
                      aria-hidden
                    />
                  )}
                  <span className="relative flex size-10 shrink-0 items-center justify-center rounded-full border bg-background text-primary shadow-xs">
                    <Icon className="size-[18px]" aria-hidden />
                  </span>
                  <div className="min-w-0 pt-1">
                    <p className="text-xs font-medium uppercase tracking-wider text-muted-foreground">
                      Step {index + 1}
                    </p>
                    <h3 className="mt-0.5 font-medium">{title}</h3>
                    <p className="mt-1 text-sm leading-relaxed text-muted-foreground">
                      {body}
                    </p>
                  </div>
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>

        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader className="pb-4">
              <div className="flex items-center justify-between gap-2">
                <CardTitle className="text-base">Your plan</CardTitle>
                <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">
                  {free.name}
                </span>
              </div>
            </CardHeader>
            <CardContent className="flex flex-col gap-4">
              <dl className="grid grid-cols-2 gap-3 text-sm">
                <div className="rounded-lg bg-muted/60 p-3">
                  <dt className="text-xs text-muted-foreground">Storage</dt>
                  <dd className="mt-0.5 font-semibold">
                    {formatPlanBytes(free.storageBytes)}
                  </dd>
                </div>
                <div className="rounded-lg bg-muted/60 p-3">
                  <dt className="text-xs text-muted-foreground">Per file</dt>
                  <dd className="mt-0.5 font-semibold">
                    {formatPlanBytes(free.maxFileBytes)}
                  </dd>
                </div>
              </dl>
              <UpgradeDialog>
                <Button variant="outline" className="w-full">
                  <Sparkles aria-hidden />
                  Compare plans
                </Button>
              </UpgradeDialog>
            </CardContent>
          </Card>

          <Card>
            <CardHeader className="pb-4">
              <CardTitle className="flex items-center gap-2 text-base">
                <BookOpen className="size-4 text-primary" aria-hidden />
                Need help?
              </CardTitle>
              <CardDescription>
                How uploads, subdomains and zipped sites work, and what to do
                when a page doesn't show up.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Link
                to="/docs"
                className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
              >
                Read the documentation
                <ArrowUpRight className="size-4" aria-hidden />
              </Link>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
