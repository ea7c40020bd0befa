export function UpdatePassword() {
  return <main className="p-8">UpdatePassword</main>;
}
