// The part of the qrcode package the dashboard uses (its browser build). The package's own types
// also describe its Node API, and would bring Node's globals into the browser's type check.
declare module "qrcode" {
  interface ToStringOptions {
    type?: "svg" | "utf8" | "terminal";
    errorCorrectionLevel?: "L" | "M" | "Q" | "H";
    margin?: number;
    color?: { dark?: string; light?: string };
  }
  const QRCode: { toString(text: string, options?: ToStringOptions): Promise<string> };
  export default QRCode;
}
