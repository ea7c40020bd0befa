export function ForgotPassword() {
  return <main className="p-8">ForgotPassword</main>;
}
