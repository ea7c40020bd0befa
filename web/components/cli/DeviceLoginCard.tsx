// One CLI sign-in request on /dashboard/cli: what asks (the computer's name, when, until when),
// Approve and Deny, then what happened. A code that names nothing the user may see (unknown,
// lapsed, answered by someone else) gets the server's reason and the code field again.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { AlertTriangle, Ban, CheckCircle2, Clock, KeyRound, Laptop, ShieldAlert, TimerOff } from "lucide-react";
import { DEVICE_LOGIN_TEXT, type DeviceLoginResponse } from "../../../common/deviceLogin";
import { timeAgo } from "../../../common/format";
import { useNow } from "../../lib/useNow";
import { Alert, AlertDescription, AlertTitle } from "../ui/Alert";
import { Button } from "../ui/Button";
import { Card, CardContent } from "../ui/Card";
import { LoadError } from "../ui/LoadError";
import { Placeholder } from "../ui/Placeholder";
import { Loading, Skeleton } from "../ui/Skeleton";
import { Spinner } from "../ui/Spinner";
import { isFinalRefusal, timeLeft, useAnswerDeviceLogin, useDeviceLogin } from "./cliLogin";
import { UserCodeForm } from "./UserCodeForm";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

export function DeviceLoginCard({ code, onCode }: { code: string; onCode: (code: string) => void }) {
  const login = useDeviceLogin(code);
  const now = useNow(15_000);

  if (login.isPending) {
    return (
      <Card>
        <Loading label="Loading the sign-in request" className="grid gap-4 p-6">
          <Skeleton className="h-12 w-48" />
          <Skeleton className="h-4 w-64" />
          <Skeleton className="h-4 w-56" />
          <Skeleton className="h-10 w-52" />
        </Loading>
      </Card>
    );
  }
  if (login.isError) {
    if (!isFinalRefusal(login.error)) {
      return (
        <LoadError
          title="Failed to load the sign-in request"
          message={login.error.message}
          onRetry={() => void login.refetch()}
          retrying={login.isFetching}
        />
      );
    }
    return <Refused title={refusalTitle(login.error.status)} message={login.error.message} code={code} onCode={onCode} />;
  }

  const request = login.data;
  if (request.status === "approved") return <Approved request={request} />;
  if (request.status === "denied") {
    return (
      <Placeholder
        icon={<Ban className="size-6" aria-hidden />}
        title="Sign-in denied"
        body="The terminal that asked has been told, and no token was created. Run berth login again if you change your mind."
      />
    );
  }
  const left = timeLeft(request.expires_at, now);
  if (left === null) return <Refused title="Code expired" message={DEVICE_LOGIN_TEXT.codeExpired} code={code} onCode={onCode} />;
  return <Pending request={request} code={code} left={left} now={now} />;
}

function refusalTitle(status: number): string {
  if (status === 410) return "Code expired";
  if (status === 429) return "Too many attempts";
  return "Code not found";
}

function Refused({ title, message, code, onCode }: { title: string; message: string; code: string; onCode: (code: string) => void }) {
  return (
    <Card>
      <CardContent className="grid gap-6 p-6">
        <Alert variant="destructive" role="alert">
          {title === "Code expired" ? <TimerOff aria-hidden /> : <AlertTriangle aria-hidden />}
          <AlertTitle>{title}</AlertTitle>
          <AlertDescription>{message}</AlertDescription>
        </Alert>
        {/* A new code for the same page: the field starts empty, since the old one did not work. */}
        <UserCodeForm key={code} onCode={onCode} />
      </CardContent>
    </Card>
  );
}

function Pending({ request, code, left, now }: { request: DeviceLoginResponse; code: string; left: string; now: Date }) {
  const answer = useAnswerDeviceLogin(code);
  const created = new Date(request.created_at);
  const busy = answer.isPending;

  return (
    <Card>
      <CardContent className="grid gap-6 p-6">
        <div>
          <p className="text-sm text-muted-foreground">Check that your terminal shows this code:</p>
          <p className="mt-2 font-mono text-3xl font-semibold tracking-[0.2em] text-foreground sm:text-4xl" aria-label={`Code ${request.user_code}`}>
            {request.user_code}
          </p>
        </div>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Fact icon={<Laptop className="size-4" aria-hidden />} term="Computer">
            {request.client_name ?? <span className="text-muted-foreground">Not named</span>}
          </Fact>
          <Fact icon={<Clock className="size-4" aria-hidden />} term="Requested">
            <time dateTime={request.created_at} title={created.toLocaleString()}>
              {timeAgo(created, now)}
            </time>
            <span className="text-muted-foreground"> · expires {left}</span>
          </Fact>
        </dl>
        <Alert>
          <ShieldAlert aria-hidden />
          <AlertTitle>
            Approve only if you just ran <code className="font-mono text-[13px]">berth login</code> yourself
          </AlertTitle>
          <AlertDescription>
            Approving gives that terminal the API token <strong className="font-medium text-foreground">“{request.token_name}”</strong>, with full
            access to all your sites. You can revoke it at any time under{" "}
            <Link to="/dashboard/integrations" className={linkClass}>
              Integrations
            </Link>
            .
          </AlertDescription>
        </Alert>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" disabled={busy} onClick={() => answer.mutate("deny")}>
            {busy && answer.variables === "deny" ? <Spinner className="size-4 text-current" label="Denying" /> : <Ban aria-hidden />}
            Deny
          </Button>
          <Button disabled={busy} onClick={() => answer.mutate("approve")}>
            {busy && answer.variables === "approve" ? <Spinner className="size-4 text-current" label="Approving" /> : <CheckCircle2 aria-hidden />}
            Approve sign-in
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function Fact({ icon, term, children }: { icon: ReactNode; term: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-start gap-3 rounded-lg border bg-muted/40 px-3 py-2.5">
      <span className="mt-0.5 text-muted-foreground">{icon}</span>
      <div className="min-w-0">
        <dt className="text-xs text-muted-foreground">{term}</dt>
        <dd className="mt-0.5 font-medium break-words text-foreground">{children}</dd>
      </div>
    </div>
  );
}

function Approved({ request }: { request: DeviceLoginResponse }) {
  return (
    <Placeholder
      icon={<CheckCircle2 className="size-6" aria-hidden />}
      title="You're signed in"
      body={`You can return to your terminal: it now works as you, with the API token “${request.token_name}”.`}
    >
      <Button asChild variant="outline">
        <Link to="/dashboard/integrations">
          <KeyRound aria-hidden />
          See your API tokens
        </Link>
      </Button>
    </Placeholder>
  );
}
