// Which Berth this is and who runs it: the version and the operator's contact details, as the
// contact page shows them (only those the operator set).
import type { PublicConfigResponse } from "../../../common/api";
import { ContactLinks, contactLines } from "../marketing/ContactLines";

export function ServerInfo({ config }: { config: PublicConfigResponse }) {
  const lines = contactLines(config);
  return (
    <div className="flex flex-col gap-4 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        <dt className="text-muted-foreground">Version</dt>
        <dd className="font-mono">Berth {config.version}</dd>
        <dt className="text-muted-foreground">Server</dt>
        <dd className="min-w-0 [overflow-wrap:anywhere]">{new URL(config.appUrl).host}</dd>
      </dl>
      <div className="border-t pt-4">
        <p className="font-medium">Operator</p>
        {lines.length > 0 ? (
          <ContactLinks lines={lines} className="mt-2" />
        ) : (
          <p className="mt-1 text-muted-foreground">This server's operator has not published contact details. The form reaches its admins.</p>
        )}
      </div>
    </div>
  );
}
