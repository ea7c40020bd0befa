import { CodeBlock, DocHeading, InlineCode } from "./DocBits";
import { METRICS, PROCESS_METRICS, type MetricDoc } from "../../../../common/metrics";

function MetricRow({ metric }: { metric: MetricDoc }) {
  return (
    <div className="grid gap-1.5 px-4 py-3">
      <dt className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="font-mono text-[0.8125rem] font-medium break-all text-foreground">{metric.name}</span>
        <span className="text-xs text-muted-foreground">
          {metric.type}
          {metric.labels.length > 0 ? ` · by ${metric.labels.join(", ")}` : ""}
        </span>
      </dt>
      <dd className="text-foreground/75">{metric.help}.</dd>
      <dd className="min-w-0">
        <code className="block rounded bg-muted px-2 py-1 font-mono text-xs break-all whitespace-pre-wrap text-foreground">{metric.promql}</code>
        <span className="mt-1 block text-xs text-muted-foreground">Shows {metric.shows}.</span>
      </dd>
    </div>
  );
}

/** The operator's health check (berth doctor) and the Prometheus metrics, inside the Self-hosting section. */
export function Operations() {
  return (
    <>
      <DocHeading>Checking the setup</DocHeading>
      <p>
        Before you start Berth, and whenever something looks wrong, run the doctor where Berth runs, as the account Berth runs as and with the same
        settings:
      </p>
      <CodeBlock code="npm run berth -- doctor" />
      <p>
        It checks the settings as start-up does, the data directory (its owner, that no other account may write in it, that Berth can), the free disk
        space, the database and its migrations, a probe file through the blob store (the data directory or your S3 bucket), the connection to your
        mail server, and that every active custom domain still points at Berth. Each line says ok, warning, problem or skipped, with what is wrong and
        how to fix it. It exits with 1 when anything is a problem, so a deployment script can stop on it.
      </p>

      <DocHeading>Monitoring with Prometheus</DocHeading>
      <p>
        Berth serves Prometheus metrics at <InlineCode>/metrics</InlineCode> once you ask for them. Set{" "}
        <InlineCode>BERTH_METRICS_LISTEN=127.0.0.1:9464</InlineCode> for a listener of its own that only this machine can reach (no password), or{" "}
        <InlineCode>BERTH_METRICS_TOKEN</InlineCode> to serve them on the main port to requests that send{" "}
        <InlineCode>{"Authorization: Bearer <token>"}</InlineCode>. Each node reports its own numbers. Berth&apos;s own metrics, with a query to start
        a Grafana panel or an alert from:
      </p>
      <dl className="divide-y rounded-xl border text-sm">
        {METRICS.map((metric) => (
          <MetricRow key={metric.name} metric={metric} />
        ))}
      </dl>
      <p>
        Every Node.js and process metric of <InlineCode>prom-client</InlineCode> comes too, prefixed <InlineCode>berth_</InlineCode>. The ones worth a
        panel:
      </p>
      <dl className="divide-y rounded-xl border text-sm">
        {PROCESS_METRICS.map((metric) => (
          <MetricRow key={metric.name} metric={metric} />
        ))}
      </dl>
    </>
  );
}
