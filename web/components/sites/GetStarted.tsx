import { Link } from "react-router";
import { CloudUpload, FolderPlus, Plus, Share2, type LucideIcon } from "lucide-react";
import { formatPlanBytes } from "../../../common/plans";
import type { StatsResponse } from "../../../common/sites";
import { PRODUCT_NAME } from "../../../common/texts";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";

/**
 * The new user's overview: three steps from a file to a link, and the button to take the first.
 * The per-file limit is the user's plan's, from GET /api/stats, named once it has arrived.
 */
export function GetStarted({ sitesDomain, stats }: { sitesDomain: string; stats: StatsResponse | undefined }) {
  const limit = stats?.max_file_bytes ? ` — up to ${formatPlanBytes(stats.max_file_bytes)} per file on the ${stats.plan_name} plan` : "";
  const steps: { Icon: LucideIcon; title: string; body: string }[] = [
    {
      Icon: FolderPlus,
      title: "Create a site",
      body: `Give it a name. ${PRODUCT_NAME} assigns it its own address, such as abcde.${sitesDomain}.`,
    },
    {
      Icon: CloudUpload,
      title: "Upload your content",
      body: `Drop an HTML file, a PDF, an image or a .zip of a static site${limit}.`,
    },
    {
      Icon: Share2,
      title: "Share the link",
      body: "Your site is live as soon as the upload finishes. Send the link to anyone; update it whenever you like.",
    },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Get started</CardTitle>
        <CardDescription>Three steps from a file on your computer to a link you can share.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="flex flex-col">
          {steps.map(({ Icon, title, body }, index) => (
            <li key={title} className="relative flex gap-4 pb-7 last:pb-0">
              {index < steps.length - 1 && <span className="absolute top-11 bottom-1 left-5 w-px bg-border" aria-hidden />}
              <span className="relative flex size-10 shrink-0 items-center justify-center rounded-full border bg-background text-primary shadow-xs">
                <Icon className="size-[18px]" aria-hidden />
              </span>
              <div className="min-w-0 pt-1">
                <p className="text-xs font-medium tracking-wider text-muted-foreground uppercase">Step {index + 1}</p>
                <h3 className="mt-0.5 font-medium">{title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{body}</p>
              </div>
            </li>
          ))}
        </ol>
        <Button asChild className="mt-7 w-full sm:w-auto">
          <Link to="/dashboard/sites/new">
            <Plus aria-hidden />
            Create your first site
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
