// The Sharing tab's writes: share links (create, revoke or restore, delete) and the site's
// visibility. Each refreshes the links, and the site when its visibility changed.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  SHARE_LINK_TEXT,
  SHARE_LINK_UI_TEXT,
  type CreateShareLinkRequest,
  type ShareLinkResponse,
  type SiteVisibility,
} from "../../../common/shareLinks";
import type { SiteResponse } from "../../../common/sites";
import { api, errorDescription } from "../../lib/api";
import { queryKeys } from "../../lib/queries";
import { siteUrl } from "../sites/detail/actions";

function linkUrl(siteId: string, linkId: string): string {
  return siteUrl(siteId, `/share-links/${encodeURIComponent(linkId)}`);
}

function useRefreshLinks(siteId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.shareLinks(siteId) });
}

export function useCreateShareLink(siteId: string) {
  const refresh = useRefreshLinks(siteId);
  return useMutation({
    mutationFn: (body: CreateShareLinkRequest) =>
      api<ShareLinkResponse>(siteUrl(siteId, "/share-links"), {
        method: "POST",
        json: body,
      }),
    onSuccess: (link) => toast.success(SHARE_LINK_TEXT.created, { description: link.name }),
    onError: (error) =>
      toast.error(SHARE_LINK_TEXT.createFailed, {
        description: errorDescription(error),
      }),
    onSettled: refresh,
  });
}

/** Revoke (`revoked: true`) or restore a link. */
export function useRevokeShareLink(siteId: string) {
  const refresh = useRefreshLinks(siteId);
  return useMutation({
    mutationFn: ({ link, revoked }: { link: ShareLinkResponse; revoked: boolean }) =>
      api<ShareLinkResponse>(linkUrl(siteId, link.id), {
        method: "PATCH",
        json: { revoked },
      }),
    onSuccess: (link, { revoked }) =>
      toast.success(revoked ? SHARE_LINK_TEXT.revoked : SHARE_LINK_TEXT.restored, {
        description: link.name,
      }),
    onError: (error) =>
      toast.error(SHARE_LINK_UI_TEXT.updateFailed, {
        description: errorDescription(error),
      }),
    onSettled: refresh,
  });
}

/** Deletes a link. Used behind its confirmation, which tells a failure itself. */
export function useDeleteShareLink(siteId: string) {
  const refresh = useRefreshLinks(siteId);
  return useMutation({
    mutationFn: (link: ShareLinkResponse) => api<void>(linkUrl(siteId, link.id), { method: "DELETE" }),
    onSuccess: (_, link) => toast.success(SHARE_LINK_TEXT.deleted, { description: link.name }),
    onSettled: refresh,
  });
}

export function useSetVisibility(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (visibility: SiteVisibility) =>
      api<SiteResponse>(siteUrl(siteId, "/visibility"), {
        method: "PUT",
        json: { visibility },
      }),
    onSuccess: (site) => {
      queryClient.setQueryData(queryKeys.site(siteId), site);
      void queryClient.invalidateQueries({
        queryKey: queryKeys.sites,
        exact: true,
      });
      toast.success(site.visibility === "private" ? SHARE_LINK_TEXT.visibilityPrivate : SHARE_LINK_TEXT.visibilityPublic);
    },
    onError: (error) =>
      toast.error(SHARE_LINK_TEXT.visibilityFailed, {
        description: errorDescription(error),
      }),
  });
}
