// The product specification's texts, quoted exactly. Screens, toasts and tests import them from
// here so that a wording change happens in one place.

export const PRODUCT_NAME = "Berth";

export const AUTH_TEXT = {
  missingCredentials: "You must provide either an email or phone number and a password.",
  unexpectedError: "An unexpected error occurred",
  signupSuccess: "Please check your email to confirm your account.",
  resetSuccess: "Check your email for the password reset link",
  loginSuccess: `Welcome back to ${PRODUCT_NAME}!`,
  passwordHint: "Password must be at least 8 characters",
  notAuthenticated: "Not authenticated",
  sessionMissing: "Auth session missing!",
} as const;

export const CONTACT_TEXT = {
  nameRequired: "Name is required",
  emailRequired: "Email is required",
  emailInvalid: "Invalid email address",
  subjectRequired: "Subject is required",
  messageRequired: "Message is required",
  sent: "Message sent successfully! We'll get back to you soon.",
  officeHours: [
    { days: "Monday - Friday", hours: "9:00 AM - 6:00 PM EST", short: "Mon-Fri 9-6 EST" },
    { days: "Saturday", hours: "10:00 AM - 4:00 PM EST", short: "Sat 10-4 EST" },
    { days: "Sunday", hours: "Closed", short: "Sun closed" },
  ],
} as const;

export const NOT_FOUND_TEXT = {
  code: "404",
  title: "Page not found",
  body: "Sorry, we couldn't find the page you're looking for.",
  dashboardBody:
    "The page you're looking for doesn't exist or you may need to sign in to access it.",
  backToDashboard: "Back to Dashboard",
  goToDashboard: "Go to Dashboard",
  goHome: "Go to Home",
  signIn: "Sign In",
} as const;

export const DASHBOARD_TEXT = {
  upgrade: "Upgrade to Pro",
  nav: {
    dashboard: "Dashboard",
    sites: "My Sites",
    settings: "Settings",
    help: "Help & Support",
    logout: "Logout",
  },
  stats: {
    totalSites: "Total Sites",
    deployments: "Deployments",
    storageUsed: "Storage Used",
    bandwidth: "Bandwidth",
  },
  errorFetchingSites: "Error fetching sites",
} as const;

export const LANDING_TEXT = {
  nav: {
    features: "Features",
    featureItems: [
      "Uptime Guarantee",
      "One-Click Rollbacks",
      "CDN Integration",
      "AI Optimization",
      "Developer Tools",
    ],
    pricing: "Pricing",
    docs: "Docs",
    resources: "Resources",
    resourceItems: ["Blog", "Case Studies", "Knowledge Base", "API Reference"],
    contact: "Contact",
    signIn: "Sign In",
    signUp: "Sign Up",
    dashboard: "Dashboard",
  },
  filePreview: [
    { name: "annual-report.pdf", status: "Uploaded" },
    { name: "landing-page.html", status: "Live" },
    { name: "project.zip", status: "Active" },
  ],
  footerGroups: ["Product", "Resources", "Company"],
  company: { contact: "Contact", privacy: "Privacy Policy", terms: "Terms of Service" },
  noCreditCard: "No credit card required",
} as const;

/** Greeting by local hour: morning before 12:00, afternoon before 18:00, otherwise evening. */
export function greetingFor(date: Date, fullName: string | null | undefined): string {
  const hour = date.getHours();
  const part = hour < 12 ? "morning" : hour < 18 ? "afternoon" : "evening";
  const first = fullName?.trim().split(/\s+/)[0];
  return `Good ${part}, ${first || "there"}`;
}
