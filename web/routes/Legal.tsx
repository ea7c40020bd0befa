export function Legal({ document }: { document: "terms" | "privacy" }) {
  return <main className="p-8">{document}</main>;
}
