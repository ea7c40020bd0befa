// The new-token form's permission: one radio per permission, each with what it allows, as a card
// that selects on a click anywhere in it. It has no error line: one of the three is always chosen.
import { useId } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { API_TOKEN_PERMISSIONS } from "../../../common/apiTokens";
import { PERMISSION_TEXT } from "./apiTokens";

export function PermissionChoice({ field }: { field: UseFormRegisterReturn<"permission"> }) {
  const id = useId();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm leading-none font-medium">Permission</legend>
      {API_TOKEN_PERMISSIONS.map((permission) => {
        const { label, description } = PERMISSION_TEXT[permission];
        return (
          <label
            key={permission}
            className="flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 transition-colors hover:bg-muted/50 has-checked:border-primary has-checked:bg-accent/60 has-focus-visible:outline-2 has-focus-visible:outline-offset-1 has-focus-visible:outline-ring"
          >
            <input
              type="radio"
              value={permission}
              aria-labelledby={`${id}-${permission}`}
              aria-describedby={`${id}-${permission}-about`}
              className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary focus-visible:outline-none"
              {...field}
            />
            <span className="grid gap-0.5">
              <span id={`${id}-${permission}`} className="text-sm font-medium">
                {label}
              </span>
              <span id={`${id}-${permission}-about`} className="text-xs leading-relaxed text-muted-foreground">
                {description}
              </span>
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
