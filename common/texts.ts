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

/** Texts of the sign-in, sign-up and password screens that the spec leaves to us. */
export const AUTH_SCREEN_TEXT = {
  login: {
    title: "Sign in to Berth",
    subtitle: "Welcome back. Enter your details to open your dashboard.",
    submit: "Sign In",
    rememberMe: "Remember me",
    forgotPassword: "Forgot password?",
    noAccount: "Don't have an account?",
    signUpLink: "Sign up",
    verified: "Your e-mail address is confirmed. You can sign in now.",
    verifyLinkInvalid: "This confirmation link is invalid or has expired. Sign in to get a new one.",
    emailNotVerified:
      "Your e-mail address is not confirmed yet. We've sent you a new confirmation link — open it, then sign in.",
    tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
  },
  signup: {
    title: "Create your account",
    subtitle: "Host HTML pages, PDFs and zipped sites in one click.",
    submit: "Create Account",
    fullNameRequired: "Full name is required",
    emailInvalid: "Enter a valid e-mail address",
    termsRequired: "You must agree to the Terms of Service and Privacy Policy",
    haveAccount: "Already have an account?",
    signInLink: "Sign in",
  },
  forgot: {
    title: "Reset your password",
    subtitle: "Enter the e-mail address of your account and we'll send you a link to choose a new password.",
    submit: "Send Reset Link",
    sentTitle: "Check your inbox",
    backToSignIn: "Back to Sign In",
    rememberIt: "Remembered it?",
    sentExpiry: "The link works once and expires in an hour. Can't find it? Look in your spam folder.",
    useAnotherAddress: "Use a different e-mail address",
  },
  update: {
    title: "Choose a new password",
    subtitle: "Pick a password you don't use anywhere else.",
    submit: "Update Password",
    mismatch: "Passwords do not match",
    successTitle: "Password updated",
    successDescription: "Your password has been changed. Sign in with your new password.",
    invalidTitle: "Link expired",
    invalidLink: "This password reset link is invalid or has expired.",
    requestNew: "Request a new link",
  },
  emailRequired: "Email is required",
  showPassword: "Show password",
  hidePassword: "Hide password",
} as const;

/** The dashboard shell's texts beyond the spec's labels. */
export const DASHBOARD_SHELL_TEXT = {
  notificationsTitle: "Notifications",
  notificationsEmpty: "No notifications yet",
  notificationsEmptyBody: "We'll let you know when a deployment finishes or a domain goes live.",
  upgradeTitle: "Plans",
  upgradeBody: "Upgrades are arranged by the operator of this Berth server.",
  upgradeContact: "To move to Pro, write to",
  upgradeNoContact: "Ask the administrator of this Berth server.",
  currentPlan: "Current plan",
  openMenu: "Open menu",
  collapseSidebar: "Collapse sidebar",
  expandSidebar: "Expand sidebar",
} as const;

/** The office hours on one line, as the spec writes them. */
export const CONTACT_OFFICE_HOURS_SUMMARY = CONTACT_TEXT.officeHours.map((h) => h.short).join(", ");

/** Labels of the contact form; browser tests find the fields by these. */
export const CONTACT_FORM_TEXT = {
  name: "Name",
  email: "Email",
  subject: "Subject",
  message: "Message",
  submit: "Send Message",
} as const;
