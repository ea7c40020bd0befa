// /dashboard/help: search the docs, the common tasks, the dashboard's keyboard shortcuts, which
// server this is and who runs it, and a support form sent from the signed-in account.
import { useEffect } from "react";
import { Link } from "react-router";
import { BookOpen } from "lucide-react";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { CommonTasks } from "../../components/help/CommonTasks";
import { DocsSearch } from "../../components/help/DocsSearch";
import { ServerInfo } from "../../components/help/ServerInfo";
import { Shortcuts } from "../../components/help/Shortcuts";
import { SupportForm } from "../../components/help/SupportForm";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { useSession } from "../../lib/session";
import { usePublicConfig } from "../../lib/usePublicConfig";

export function Help() {
  const { user } = useSession();
  const config = usePublicConfig();

  useEffect(() => {
    document.title = `${DASHBOARD_TEXT.nav.help} · ${PRODUCT_NAME}`;
  }, []);

  const operator = config.data?.contactEmail ?? "The operator's team";

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{DASHBOARD_TEXT.nav.help}</h1>
          <p className="mt-1.5 max-w-2xl text-sm text-muted-foreground">Find an answer in the docs, or write to the people who run this server.</p>
        </div>
        <Button asChild variant="outline">
          <Link to="/docs">
            <BookOpen aria-hidden />
            All docs
          </Link>
        </Button>
      </div>

      <Card>
        <CardContent className="pt-6">
          <DocsSearch />
        </CardContent>
      </Card>

      <section aria-labelledby="help-tasks" className="flex flex-col gap-3">
        <h2 id="help-tasks" className="text-lg font-semibold tracking-tight">
          Common tasks
        </h2>
        <CommonTasks />
      </section>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <Card>
          <CardHeader>
            <CardTitle>Contact support</CardTitle>
            <CardDescription>Your message goes to this server's operator with your account attached, so they can look into it.</CardDescription>
          </CardHeader>
          <CardContent>
            {user ? <SupportForm name={user.name} email={user.email} answeredBy={operator} /> : <Skeleton className="h-72 w-full" />}
          </CardContent>
        </Card>
        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader>
              <CardTitle>About this server</CardTitle>
            </CardHeader>
            <CardContent>
              {config.data ? (
                <ServerInfo config={config.data} />
              ) : config.isError ? (
                <LoadError inline title="Could not load the server's details" onRetry={() => void config.refetch()} retrying={config.isFetching} />
              ) : (
                <Skeleton className="h-24 w-full" />
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Keyboard shortcuts</CardTitle>
            </CardHeader>
            <CardContent>
              <Shortcuts />
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
