import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { LegalDocumentResponse } from "../../common/api";
import { LANDING_TEXT } from "../../common/texts";
import { LoadError } from "../components/ui/LoadError";
import { Loading, Skeleton } from "../components/ui/Skeleton";
import { MarkdownArticle } from "../components/marketing/MarkdownArticle";
import { MarketingLayout } from "../components/marketing/MarketingLayout";
import { PageHeader } from "../components/marketing/PageHeader";
import { Container } from "../components/marketing/Section";
import { api } from "../lib/api";

type LegalDocumentName = "terms" | "privacy";

const FALLBACK_TITLE: Record<LegalDocumentName, string> = {
  terms: LANDING_TEXT.company.terms,
  privacy: LANDING_TEXT.company.privacy,
};

const OTHER: Record<LegalDocumentName, { label: string; to: string }> = {
  terms: { label: LANDING_TEXT.company.privacy, to: "/privacy" },
  privacy: { label: LANDING_TEXT.company.terms, to: "/terms" },
};

// The page header already shows the title, so a document that opens with the same heading
// would say it twice.
function withoutLeadingTitle(markdown: string, title: string): string {
  const match = /^\s*#[ \t]+(.+?)[ \t]*(?:\r?\n|$)/.exec(markdown);
  return match && match[1]?.trim().toLowerCase() === title.trim().toLowerCase() ? markdown.slice(match[0].length) : markdown;
}

function LoadingDocument() {
  return (
    <Loading label="Loading document" className="space-y-4">
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-11/12" />
      <Skeleton className="h-4 w-4/5" />
      <Skeleton className="mt-10 h-6 w-48" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-10/12" />
      <Skeleton className="h-4 w-3/4" />
    </Loading>
  );
}

export function Legal({ document }: { document: LegalDocumentName }) {
  const query = useQuery({
    queryKey: ["legal", document],
    queryFn: () => api<LegalDocumentResponse>(`/api/legal/${document}`),
    staleTime: 5 * 60_000,
  });
  const title = query.data?.title ?? FALLBACK_TITLE[document];
  const other = OTHER[document];

  return (
    <MarketingLayout>
      <title>{`${title} · Berth`}</title>
      <PageHeader eyebrow="Legal" title={title}>
        {document === "terms"
          ? "The rules for using this Berth service, written to be short and plain."
          : "What this Berth service collects, why, and the choices you have."}
      </PageHeader>
      <Container className="pb-24 sm:pb-28">
        <div className="mx-auto max-w-3xl rounded-2xl border bg-card px-6 py-8 shadow-xs sm:px-12 sm:py-12">
          {query.isPending ? (
            <LoadingDocument />
          ) : query.isError ? (
            <LoadError
              inline
              title={`The ${title.toLowerCase()} could not be loaded`}
              message={query.error.message}
              onRetry={() => void query.refetch()}
              retrying={query.isFetching}
            />
          ) : (
            <article aria-label={title}>
              <MarkdownArticle source={withoutLeadingTitle(query.data.markdown, query.data.title)} />
            </article>
          )}
        </div>
        <p className="mx-auto mt-8 max-w-3xl text-center text-sm text-muted-foreground">
          See also the{" "}
          <Link to={other.to} className="font-medium text-primary underline-offset-4 hover:underline">
            {other.label}
          </Link>
          . Questions?{" "}
          <Link to="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
            Contact us
          </Link>
          .
        </p>
      </Container>
    </MarketingLayout>
  );
}
