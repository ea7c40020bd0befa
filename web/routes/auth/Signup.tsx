export function Signup() {
  return <main className="p-8">Signup</main>;
}
