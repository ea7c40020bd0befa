export function Docs() {
  return <main className="p-8">Docs</main>;
}
