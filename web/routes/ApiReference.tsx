// /docs/api: the API reference, rendered from this server's own OpenAPI document
// (GET /api/openapi.json), which the server builds from the routes it runs.
import { useEffect, useMemo, useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "react-router";
import { OPENAPI_PATH, type OpenApiDocument } from "../../common/openapi";
import { API_TOKEN_LIMIT } from "../../common/limits";
import { PageHeader } from "../components/marketing/PageHeader";
import { MarketingLayout } from "../components/marketing/MarketingLayout";
import { Container } from "../components/marketing/Section";
import { DocsChips, DocsToc, type TocEntry } from "../components/marketing/docs/DocsToc";
import { CodeBlock, DocSection, InlineCode } from "../components/marketing/docs/DocBits";
import { groupByTag, type TagGroup } from "../components/marketing/apiReference/apiDocument";
import { AuthBadge, authMeaning } from "../components/marketing/apiReference/Badges";
import { OperationCard } from "../components/marketing/apiReference/OperationCard";
import { LoadError } from "../components/ui/LoadError";
import { Loading, Skeleton } from "../components/ui/Skeleton";
import { api } from "../lib/api";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";
const OVERVIEW: TocEntry = { id: "overview", label: "Overview" };

export function ApiReference() {
  const query = useQuery({ queryKey: ["openapi"], queryFn: () => api<OpenApiDocument>(OPENAPI_PATH), staleTime: 5 * 60_000 });
  const groups = useMemo(() => (query.data ? groupByTag(query.data) : []), [query.data]);
  const entries = useMemo(() => [OVERVIEW, ...groups.map(({ id, name }) => ({ id, label: name }))], [groups]);
  useScrollToLoadedAnchor(query.data !== undefined);

  return (
    <MarketingLayout>
      <title>API reference · Berth docs</title>
      <PageHeader eyebrow="Documentation" title="API reference">
        Every route of this server's JSON API: what it takes, what it answers and who may call it. Generated from the code that serves it.
      </PageHeader>
      <Container className="pb-24 sm:pb-28">
        <div className="grid grid-cols-1 gap-10 lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-16">
          <aside className="hidden lg:block">
            <DocsToc entries={entries} className="sticky top-24" />
          </aside>
          <div className="min-w-0 max-w-3xl">
            <DocsChips entries={entries} className="mb-10 lg:hidden" />
            <div className="space-y-12">
              <Overview document={query.data} />
              {query.isPending ? (
                <LoadingReference />
              ) : query.isError ? (
                <LoadError
                  title="The API reference could not be loaded"
                  message={query.error.message}
                  onRetry={() => void query.refetch()}
                  retrying={query.isFetching}
                />
              ) : (
                groups.map((group) => <TagSection key={group.id} document={query.data} group={group} />)
              )}
            </div>
          </div>
        </div>
      </Container>
    </MarketingLayout>
  );
}

/** The layout scrolls to the address's anchor before the operations exist; once they do, go there. */
function useScrollToLoadedAnchor(loaded: boolean) {
  const { hash } = useLocation();
  // Only when the document arrives: later anchors are the layout's.
  const arrived = useRef(false);
  useEffect(() => {
    if (!loaded || arrived.current) return;
    arrived.current = true;
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ behavior: "instant", block: "start" });
  }, [loaded, hash]);
}

function Overview({ document }: { document: OpenApiDocument | undefined }) {
  const server = document?.servers[0]?.url ?? window.location.origin;
  return (
    <DocSection id={OVERVIEW.id} title="Overview" lead="How to call the API, and how to read this page.">
      <p>
        The API answers JSON under <InlineCode>{server}/api/</InlineCode>. Scripts and CI jobs authenticate with an API token from{" "}
        <Link to="/dashboard/integrations" className={linkClass}>
          Integrations
        </Link>
        , sent in the <InlineCode>Authorization</InlineCode> header; the dashboard itself calls the same routes with its session.{" "}
        <Link to="/docs#api" className={linkClass}>
          More about tokens
        </Link>
        .
      </p>
      <CodeBlock code={`curl -H "Authorization: Bearer $BERTH_TOKEN" ${server}/api/sites`} />
      <p>Each route says who may call it:</p>
      <ul className="space-y-2.5">
        {([{ kind: "public" }, { kind: "token", permission: "read" }, { kind: "session" }, { kind: "admin" }] as const).map((auth) => (
          <li key={auth.kind} className="flex flex-col gap-1.5 sm:flex-row sm:items-baseline sm:gap-3">
            <AuthBadge auth={auth} className="w-fit" />
            <span className="text-foreground/80">
              {authMeaning(auth)}
              {auth.kind === "token" ? " Permissions include the ones before them: read, then deploy, then full." : ""}
            </span>
          </li>
        ))}
      </ul>
      <p>
        A token request must not carry cookies, and each token may make {API_TOKEN_LIMIT.max} requests a minute. Errors answer{" "}
        <InlineCode>{`{ "error": { "code", "message", "fields"? } }`}</InlineCode>, where <InlineCode>fields</InlineCode> names each invalid field.
        Sign-in, sign-up and password resets are the dashboard's own and are not listed.
      </p>
      <p>
        The machine-readable form is the OpenAPI 3.1 document at{" "}
        <a href={OPENAPI_PATH} className={linkClass}>
          {OPENAPI_PATH}
        </a>
        : load it into any OpenAPI tool or client generator.
      </p>
    </DocSection>
  );
}

function TagSection({ document, group }: { document: OpenApiDocument; group: TagGroup }) {
  return (
    <DocSection id={group.id} title={group.name} lead={group.description}>
      <div className="space-y-5">
        {group.endpoints.map((endpoint) => (
          <OperationCard key={`${endpoint.method} ${endpoint.path}`} document={document} endpoint={endpoint} />
        ))}
      </div>
    </DocSection>
  );
}

function LoadingReference() {
  return (
    <Loading label="Loading the API reference" className="space-y-5">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-5 w-3/4" />
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} className="h-40 w-full rounded-xl" />
      ))}
    </Loading>
  );
}
