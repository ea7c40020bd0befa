// The domain writes, shared by /dashboard/domains and a site's Domains card. Every write refreshes
// all domain lists (the page and the card read the same rows) and the site list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { DOMAIN_TEXT, DOMAIN_UI_TEXT, type AddDomainRequest, type DomainResponse } from "../../../common/domains";
import { api, errorDescription } from "../../lib/api";
import { queryKeys } from "../../lib/queries";
import { siteUrl } from "../sites/detail/actions";

function domainUrl(domainId: string, rest = ""): string {
  return `/api/domains/${encodeURIComponent(domainId)}${rest}`;
}

function useRefreshDomains() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.domains }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sites, exact: true }),
    ]);
}

/** Adds a domain to a site; the caller shows field errors, this shows the toasts. */
export function useAddDomain() {
  const refresh = useRefreshDomains();
  return useMutation({
    mutationFn: ({ siteId, body }: { siteId: string; body: AddDomainRequest }) =>
      api<DomainResponse>(siteUrl(siteId, "/domains"), {
        method: "POST",
        json: body,
      }),
    onSuccess: (domain) =>
      toast.success(DOMAIN_TEXT.added, {
        description: `Create the DNS records shown for ${domain.hostname}.`,
      }),
    onError: (error) =>
      toast.error(DOMAIN_TEXT.addFailed, {
        description: errorDescription(error),
      }),
    onSettled: refresh,
  });
}

/** "Check again": restarts provisioning from the DNS check. */
export function useCheckDomain() {
  const refresh = useRefreshDomains();
  return useMutation({
    mutationFn: (domain: DomainResponse) => api<DomainResponse>(domainUrl(domain.id, "/check"), { method: "POST" }),
    onSuccess: (domain) => toast.success(DOMAIN_TEXT.checking, { description: domain.hostname }),
    onError: (error) =>
      toast.error(DOMAIN_UI_TEXT.checkFailed, {
        description: errorDescription(error),
      }),
    onSettled: refresh,
  });
}

/** Removes a domain. Used behind its confirmation, which tells a failure itself. */
export function useRemoveDomain() {
  const refresh = useRefreshDomains();
  return useMutation({
    mutationFn: (domain: DomainResponse) => api<void>(domainUrl(domain.id), { method: "DELETE" }),
    onSuccess: (_, domain) => toast.success(DOMAIN_TEXT.removed, { description: domain.hostname }),
    onSettled: refresh,
  });
}
