// /dashboard/cli: where `berth login` sends the browser. The link carries the code (?code=…); the
// user checks it against the terminal and approves or denies the sign-in. Without a code (the
// link typed by hand) the page asks for it.
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { PRODUCT_NAME } from "../../../common/texts";
import { codeFromSearch } from "../../components/cli/cliLogin";
import { DeviceLoginCard } from "../../components/cli/DeviceLoginCard";
import { UserCodeForm } from "../../components/cli/UserCodeForm";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";

export function CliLogin() {
  const [search, setSearch] = useSearchParams();
  const code = codeFromSearch(search);
  const showCode = (next: string) => setSearch({ code: next });

  useEffect(() => {
    document.title = `CLI sign-in · ${PRODUCT_NAME}`;
  }, []);

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Sign in to the berth CLI</h1>
        <p className="mt-1.5 text-sm text-muted-foreground">
          A terminal asked to act as you. Approve it here and the <code className="font-mono text-[13px] text-foreground">berth</code> command can
          deploy and manage your sites.
        </p>
      </div>
      {code ? (
        <DeviceLoginCard key={code} code={code} onCode={showCode} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Enter the code</CardTitle>
            <CardDescription>
              Run <code className="font-mono text-[13px] text-foreground">berth login</code> in your terminal; it shows a code and a link to this
              page.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <UserCodeForm initial={search.get("code") ?? ""} onCode={showCode} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
