import { Link } from "react-router";
import { cn } from "../../lib/cn";
import { Markdown, type MarkdownLinkProps } from "../../lib/Markdown";

const linkClass = "font-medium text-primary underline underline-offset-4 decoration-primary/30 hover:decoration-primary";

// Same-site paths go through the router so that following one does not reload the app.
function DocumentLink({ href, children }: MarkdownLinkProps) {
  if (href.startsWith("/")) {
    return (
      <Link to={href} className={linkClass}>
        {children}
      </Link>
    );
  }
  return (
    <a href={href} className={linkClass} rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Long-form Markdown with readable typography; the renderer emits bare elements, styled here. */
export function MarkdownArticle({ source, className }: { source: string; className?: string }) {
  return (
    <div
      className={cn(
        "text-base leading-7 text-foreground/85",
        "[&_h1]:mb-4 [&_h1]:mt-10 [&_h1]:text-3xl [&_h1]:font-semibold [&_h1]:tracking-tight [&_h1]:text-foreground",
        "[&_h2]:mb-3 [&_h2]:mt-10 [&_h2]:scroll-mt-24 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-foreground",
        "[&_h3]:mb-2 [&_h3]:mt-8 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-foreground",
        "[&>:first-child]:mt-0 [&_p]:my-4 [&_strong]:font-semibold [&_strong]:text-foreground",
        "[&_ul]:my-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:my-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_li]:pl-1 [&_li::marker]:text-muted-foreground",
        "[&_code]:rounded [&_code]:bg-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.875em] [&_code]:text-foreground",
        "[&_hr]:my-10 [&_hr]:border-border",
        className,
      )}
    >
      <Markdown source={source} renderLink={DocumentLink} />
    </div>
  );
}
