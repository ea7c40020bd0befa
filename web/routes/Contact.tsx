export function Contact() {
  return <main className="p-8">Contact</main>;
}
