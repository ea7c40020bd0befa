// The profile picture: PUT /api/me/avatar with one file, DELETE to remove it. The type and size are
// checked here before anything is sent; the server checks again and its refusal is shown as is.
import { useRef, useState, type ChangeEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { ImageUp, Trash2, UserRound } from "lucide-react";
import type { MeResponse } from "../../../common/api";
import { SETTINGS_TEXT } from "../../../common/texts";
import { api, ApiError } from "../../lib/api";
import { useSession } from "../../lib/session";
import { displayName } from "../dashboard/userDisplay";
import { Avatar, AvatarFallback, AvatarImage } from "../ui/Avatar";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { Spinner } from "../ui/Spinner";
import { AVATAR_ACCEPT, AVATAR_LIMIT, avatarFileProblem } from "./avatar";

const T = SETTINGS_TEXT.avatar;

export function AvatarCard() {
  const { profile, user, setMe } = useSession();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const avatarUrl = profile?.avatar_url ?? null;
  const name = displayName(profile?.full_name, user?.name);

  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file, file.name);
      return api<MeResponse>("/api/me/avatar", { method: "PUT", body: form });
    },
    onSuccess: (me) => {
      setMe(me);
      toast.success(T.uploaded);
    },
    onError: (error) => {
      // The server's refusal: a title ("Image too large") and, usually, the limit as a detail.
      const detail = error instanceof ApiError ? error.detail : undefined;
      setProblem(detail ? `${error.message}. ${detail}` : error.message);
      toast.error(error.message || T.uploadFailed, { description: detail });
    },
  });

  const remove = useMutation({
    mutationFn: () => api<MeResponse>("/api/me/avatar", { method: "DELETE" }),
    onSuccess: (me) => {
      setMe(me);
      toast.success(T.removed);
    },
    onError: (error) => {
      toast.error(T.removeFailed, { description: error.message });
    },
  });

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared at once, so choosing the same file again still fires a change.
    event.target.value = "";
    if (!file) return;
    const refused = avatarFileProblem(file);
    setProblem(refused);
    if (refused) {
      toast.error(T.uploadFailed, { description: refused });
      return;
    }
    upload.mutate(file);
  }

  const busy = upload.isPending || remove.isPending;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{T.title}</CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5 sm:flex-row sm:items-center">
        <div className="relative self-start sm:self-auto">
          <Avatar className="size-20 border">
            {avatarUrl && (
              <AvatarImage src={avatarUrl} alt={name ? `${name}'s profile picture` : "Your profile picture"} data-testid="settings-avatar-image" />
            )}
            <AvatarFallback delayMs={avatarUrl ? 600 : 0} className="bg-none bg-muted text-muted-foreground">
              <UserRound className="size-9" aria-label="No profile picture" />
            </AvatarFallback>
          </Avatar>
          {busy && (
            <span className="absolute inset-0 flex items-center justify-center rounded-full bg-background/70">
              <Spinner className="size-6" label={upload.isPending ? "Uploading" : "Removing"} />
            </span>
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-2.5">
          <div className="flex flex-wrap gap-2">
            <input
              ref={input}
              type="file"
              accept={AVATAR_ACCEPT}
              className="sr-only"
              tabIndex={-1}
              aria-hidden
              onChange={onPick}
              data-testid="avatar-file"
            />
            <Button type="button" variant="outline" disabled={busy} onClick={() => input.current?.click()} aria-describedby="avatar-hint">
              <ImageUp aria-hidden />
              {T.upload}
            </Button>
            {avatarUrl && (
              <Button
                type="button"
                variant="ghost"
                disabled={busy}
                onClick={() => {
                  setProblem(null);
                  remove.mutate();
                }}
                className="text-muted-foreground hover:text-destructive"
              >
                <Trash2 aria-hidden />
                {T.remove}
              </Button>
            )}
          </div>
          <p id="avatar-hint" className="text-xs text-muted-foreground">
            {T.hint(AVATAR_LIMIT)}
          </p>
          {problem && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {problem}
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
