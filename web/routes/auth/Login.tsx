export function Login() {
  return <main className="p-8">Login</main>;
}
