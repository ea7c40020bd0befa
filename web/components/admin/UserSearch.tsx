// The search box. It filters as you type, but the address (?search=) and the request follow only
// after a short pause, so typing a name does not send one request per letter.
import { useEffect, useState } from "react";
import { Search, X } from "lucide-react";
import { ADMIN_TEXT } from "../../../common/texts";
import { Input } from "../ui/Input";
import { Spinner } from "../ui/Spinner";

export const SEARCH_DEBOUNCE_MS = 300;

export function UserSearch({
  value,
  onChange,
  busy,
}: {
  /** The search in the address. */
  value: string;
  onChange: (next: string) => void;
  busy: boolean;
}) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  // The address changed from elsewhere (Back, 'Clear search'): show it, unless it is what is typed.
  if (value !== seen) {
    setSeen(value);
    if (value !== text.trim()) setText(value);
  }

  useEffect(() => {
    const next = text.trim();
    if (next === value) return;
    const timer = window.setTimeout(() => onChange(next), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value, onChange]);

  return (
    <div className="relative min-w-0 flex-1">
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") onChange(text.trim());
        }}
        placeholder={ADMIN_TEXT.searchPlaceholder}
        aria-label={ADMIN_TEXT.searchLabel}
        className="bg-background pr-16 pl-9 [&::-webkit-search-cancel-button]:hidden"
      />
      <div className="absolute top-1/2 right-2 flex -translate-y-1/2 items-center gap-1">
        {busy && <Spinner className="size-4 text-muted-foreground" label="Searching" />}
        {text && (
          <button
            type="button"
            onClick={() => {
              setText("");
              onChange("");
            }}
            className="flex size-6 cursor-pointer items-center justify-center rounded-sm text-muted-foreground hover:text-foreground"
            aria-label={ADMIN_TEXT.clearSearch}
          >
            <X className="size-4" aria-hidden />
          </button>
        )}
      </div>
    </div>
  );
}
