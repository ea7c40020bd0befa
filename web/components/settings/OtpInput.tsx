import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";
import { Input } from "../ui/Input";
import { OTP_LENGTH, sanitizeOtp } from "./twoFactor";

/**
 * One field for a 6-digit code: numeric keyboard on phones, the browser's one-time-code autofill,
 * and pasting "123 456" or "123-456" works (anything but digits is dropped). `onComplete` fires
 * when the sixth digit arrives.
 */
export function OtpInput({
  value,
  onChange,
  onComplete,
  className,
  ...props
}: Omit<ComponentProps<"input">, "value" | "onChange" | "type"> & {
  value: string;
  onChange: (value: string) => void;
  onComplete?: (value: string) => void;
}) {
  return (
    <Input
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      spellCheck={false}
      placeholder="000000"
      className={cn("h-12 text-center font-mono text-2xl tracking-[0.4em] placeholder:text-muted-foreground/40 indent-[0.4em]", className)}
      value={value}
      onChange={(event) => {
        const next = sanitizeOtp(event.target.value);
        onChange(next);
        if (next.length === OTP_LENGTH && value.length !== OTP_LENGTH) onComplete?.(next);
      }}
      {...props}
    />
  );
}
