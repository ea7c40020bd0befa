export function NotFound() {
  return <main className="p-8">NotFound</main>;
}
