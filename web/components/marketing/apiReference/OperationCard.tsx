// One operation of the API reference: summary, who may call it, method and path, then what it
// takes (path and query parameters, the body) and what it answers.
import type { ReactNode } from "react";
import { ChevronRight } from "lucide-react";
import type { OpenApiDocument, OpenApiOperation } from "../../../../common/openapi";
import { cn } from "../../../lib/cn";
import { authOf, fieldRows, parameterRows, resolve, typeLabel, type Endpoint } from "./apiDocument";
import { AuthBadge, MethodBadge } from "./Badges";
import { CodeText } from "./CodeText";
import { FieldList } from "./FieldList";

const BODY_LABELS: Record<string, string> = {
  "application/json": "JSON body",
  "multipart/form-data": "Multipart form",
};

export function OperationCard({ document, endpoint }: { document: OpenApiDocument; endpoint: Endpoint }) {
  const { method, path, operation } = endpoint;
  return (
    <article
      id={operation.operationId}
      aria-labelledby={`${operation.operationId}-title`}
      className="scroll-mt-24 rounded-xl border bg-card shadow-xs"
    >
      <header className="space-y-3 border-b px-4 py-4 sm:px-5">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <h3 id={`${operation.operationId}-title`} className="min-w-0 text-base font-semibold text-foreground">
            {operation.summary}
          </h3>
          <AuthBadge auth={authOf(operation)} />
        </div>
        <div className="flex min-w-0 items-center gap-2.5 rounded-lg bg-muted/70 px-2 py-1.5">
          <MethodBadge method={method} />
          <PathText path={path} />
        </div>
      </header>
      <div className="space-y-5 px-4 py-4 text-sm sm:px-5">
        {operation.description ? (
          <p className="leading-6 text-foreground/80">
            <CodeText text={operation.description} />
          </p>
        ) : null}
        <Parameters document={document} operation={operation} />
        <RequestBody document={document} operation={operation} />
        <Responses document={document} operation={operation} />
      </div>
    </article>
  );
}

/** The path, its parameters picked out. Long paths break at slashes on narrow screens. */
function PathText({ path }: { path: string }) {
  const parts = path.split(/(\{\w+\})/);
  return (
    <code className="min-w-0 font-mono text-[13px] break-all text-foreground">
      {parts.map((part, index) =>
        part.startsWith("{") ? (
          <span key={index} className="text-primary">
            {part}
          </span>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </code>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h4 className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">{title}</h4>
      {children}
    </section>
  );
}

function Parameters({ document, operation }: { document: OpenApiDocument; operation: OpenApiOperation }) {
  const parameters = operation.parameters ?? [];
  if (parameters.length === 0) return null;
  return (
    <Block title="Parameters">
      <FieldList rows={parameterRows(document, parameters)} label="Parameters" />
    </Block>
  );
}

function RequestBody({ document, operation }: { document: OpenApiDocument; operation: OpenApiOperation }) {
  const content = Object.entries(operation.requestBody?.content ?? {});
  if (content.length === 0) return null;
  return (
    <>
      {content.map(([type, media]) => {
        const schema = resolve(document, media.schema);
        const label = BODY_LABELS[type] ?? type;
        return (
          <Block key={type} title={label}>
            {schema.properties ? (
              <FieldList rows={fieldRows(document, media.schema)} label={label} />
            ) : (
              <p className="text-foreground/80">
                The bytes as they are{schema.description ? `: ${schema.description}` : "."}{" "}
                <code className="font-mono text-[13px]">Content-Type: {type}</code>
              </p>
            )}
          </Block>
        );
      })}
    </>
  );
}

function Responses({ document, operation }: { document: OpenApiDocument; operation: OpenApiOperation }) {
  const responses = Object.entries(operation.responses);
  return (
    <Block title="Responses">
      <ul className="divide-y overflow-hidden rounded-lg border">
        {responses.map(([status, response]) => {
          const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
          const success = status.startsWith("2") || status.startsWith("3");
          // Every error has the one shape the overview describes; only successes list their fields.
          const rows = success && media?.schema ? fieldRows(document, media.schema) : [];
          // The answer's type: its schema's name, or the content type of a file or a stream.
          const shape = success && media?.schema ? typeLabel(document, media.schema) : success && type !== "application/json" ? type : undefined;
          return (
            <li key={status} className="px-3 py-2.5">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <StatusCode status={status} />
                <span className="min-w-[10rem] flex-1 leading-6 text-foreground/80">
                  <CodeText text={response.description} />
                </span>
                {shape ? <code className="font-mono text-[13px] break-all text-primary">{shape}</code> : null}
              </div>
              {rows.length > 0 ? (
                <details className="group mt-2">
                  <summary className="inline-flex cursor-pointer list-none items-center gap-1 text-xs font-medium text-muted-foreground hover:text-foreground [&::-webkit-details-marker]:hidden">
                    <ChevronRight aria-hidden className="size-3.5 transition-transform group-open:rotate-90" />
                    {rows.length} {rows.length === 1 ? "field" : "fields"}
                  </summary>
                  <div className="mt-2">
                    <FieldList rows={rows} label={`Fields of the ${status} answer`} answer />
                  </div>
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Block>
  );
}

function StatusCode({ status }: { status: string }) {
  const tone = status.startsWith("2") || status.startsWith("3") ? "bg-success/12 text-emerald-800" : "bg-muted text-foreground/70";
  return <span className={cn("inline-flex h-5 shrink-0 items-center rounded px-1.5 font-mono text-xs font-semibold", tone)}>{status}</span>;
}
