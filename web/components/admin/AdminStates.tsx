// The user list's other faces: loading, nobody yet, no match, and the not-found screen a
// non-admin gets.
import { useEffect } from "react";
import { createPortal } from "react-dom";
import { SearchX, Users } from "lucide-react";
import { ADMIN_TEXT } from "../../../common/texts";
import { NotFound } from "../../routes/NotFound";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { Placeholder } from "../ui/Placeholder";
import { Loading, Skeleton, SkeletonRow } from "../ui/Skeleton";

const SKELETON_ROWS = 6;

export function UsersSkeleton() {
  return (
    <Card className="overflow-hidden">
      <Loading label="Loading users" className="divide-y">
        <div className="hidden h-10 bg-muted/40 @4xl:block" />
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <SkeletonRow key={i} media="size-9 rounded-full" className="px-4 py-3.5">
            <Skeleton className="hidden h-6 w-12 rounded-full @4xl:block" />
            <Skeleton className="hidden h-4 w-28 @4xl:block" />
            <Skeleton className="hidden h-6 w-16 rounded-full @4xl:block" />
            <Skeleton className="size-8" />
          </SkeletonRow>
        ))}
      </Loading>
    </Card>
  );
}

export function NoUsers() {
  return <Placeholder icon={<Users className="size-6" aria-hidden />} title={ADMIN_TEXT.noUsers} body={ADMIN_TEXT.noUsersBody} />;
}

export function NoMatches({ query, onClear }: { query: string; onClear: () => void }) {
  return (
    <Placeholder icon={<SearchX className="size-6" aria-hidden />} title={ADMIN_TEXT.noMatches} body={ADMIN_TEXT.noMatchesBody(query)}>
      <Button variant="outline" onClick={onClear}>
        {ADMIN_TEXT.clearSearch}
      </Button>
    </Placeholder>
  );
}

/** A page past the end (a bookmarked ?page=9 after users were deleted). */
export function EmptyPage({ onFirstPage }: { onFirstPage: () => void }) {
  return (
    <Placeholder
      icon={<Users className="size-6" aria-hidden />}
      title={ADMIN_TEXT.emptyPage}
      body="There are fewer users than this page number needs."
    >
      <Button variant="outline" onClick={onFirstPage}>
        {ADMIN_TEXT.firstPage}
      </Button>
    </Placeholder>
  );
}

/**
 * The app's own not-found screen, over the whole window as for any unknown dashboard path: a
 * non-admin learns nothing about the page. The dashboard behind it is made inert, so neither
 * focus nor a screen reader reaches it.
 */
export function AdminNotFound() {
  useEffect(() => {
    const root = document.getElementById("root");
    if (!root) return;
    root.inert = true;
    return () => {
      root.inert = false;
    };
  }, []);
  return createPortal(
    <div className="fixed inset-0 z-40 overflow-y-auto">
      <NotFound />
    </div>,
    document.body,
  );
}
