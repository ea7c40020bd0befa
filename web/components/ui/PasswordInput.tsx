import { useState, type ComponentProps } from "react";
import { Eye, EyeOff } from "lucide-react";
import { AUTH_SCREEN_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { Input } from "./Input";

/** A password field with a show/hide button inside its right edge. */
export function PasswordInput({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  const [visible, setVisible] = useState(false);
  const label = visible ? AUTH_SCREEN_TEXT.hidePassword : AUTH_SCREEN_TEXT.showPassword;
  return (
    <div className="relative">
      <Input type={visible ? "text" : "password"} className={cn("pr-10", className)} {...props} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={label}
        aria-pressed={visible}
        title={label}
        className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
      >
        {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  );
}
