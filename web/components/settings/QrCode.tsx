// A QR code drawn in the browser (the qrcode package, loaded when first needed), as an SVG image:
// the setup secret never leaves the page.
import { useEffect, useState } from "react";
import { Skeleton } from "../ui/Skeleton";

export function QrCode({ value, label }: { value: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    setSrc(null);
    import("qrcode")
      .then(({ default: QRCode }) =>
        QRCode.toString(value, {
          type: "svg",
          errorCorrectionLevel: "M",
          margin: 0,
          color: { dark: "#111827", light: "#ffffff" },
        }),
      )
      .then((svg) => {
        if (!cancelled) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [value]);

  return (
    <div className="flex size-44 shrink-0 items-center justify-center rounded-xl border bg-white p-3 shadow-xs">
      {src ? (
        <img src={src} alt={label} className="size-full [image-rendering:pixelated]" />
      ) : failed ? (
        <p className="text-center text-xs text-muted-foreground">Enter the key below instead.</p>
      ) : (
        <Skeleton className="size-full" />
      )}
    </div>
  );
}
