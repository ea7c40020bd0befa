export function Overview() {
  return <main className="p-8">Overview</main>;
}
