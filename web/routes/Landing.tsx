export function Landing() {
  return <main className="p-8">Landing</main>;
}
