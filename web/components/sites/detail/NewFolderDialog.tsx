import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { SITE_TEXT, type FolderResponse } from "../../../../common/sites";
import { api, errorDescription } from "../../../lib/api";
import { Button } from "../../ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog";
import { Input } from "../../ui/input";
import { Label } from "../../ui/label";
import { Spinner } from "../../ui/spinner";
import { refreshSite, siteUrl } from "./actions";
import { breadcrumbsFromPath } from "./paths";

/** 'Create New Folder' in the folder being viewed. */
export function NewFolderDialog({
  siteId,
  parent,
  open,
  onOpenChange,
}: {
  siteId: string;
  parent: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: (folderName: string) =>
      api<FolderResponse>(siteUrl(siteId, "/folders"), {
        method: "POST",
        json: { name: folderName, parent },
      }),
    onSuccess: (_, folderName) => {
      toast.success(SITE_TEXT.folderCreated, {
        description: SITE_TEXT.folderCreatedDescription(folderName),
      });
      setName("");
      onOpenChange(false);
    },
    onError: (error) =>
      toast.error(SITE_TEXT.folderFailed, {
        description: errorDescription(error),
      }),
    onSettled: () => refreshSite(queryClient, siteId),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      toast.error(SITE_TEXT.folderNameRequired, {
        description: SITE_TEXT.folderNameRequiredDescription,
      });
      return;
    }
    create.mutate(trimmed);
  };

  const location = breadcrumbsFromPath(parent)
    .map((crumb) => crumb.label)
    .join(" / ");

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !create.isPending && onOpenChange(next)}
    >
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{SITE_TEXT.createFolderTitle}</DialogTitle>
          <DialogDescription>
            Created in{" "}
            <span className="font-medium text-foreground">{location}</span>.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="mt-5 grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor="new-folder-name">{SITE_TEXT.folderNameLabel}</Label>
            <Input
              id="new-folder-name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder={SITE_TEXT.folderNamePlaceholder}
              autoComplete="off"
              autoFocus
            />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button
                type="button"
                variant="outline"
                disabled={create.isPending}
              >
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && (
                <Spinner className="size-4 text-current" label="Creating" />
              )}
              {SITE_TEXT.createFolder}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
