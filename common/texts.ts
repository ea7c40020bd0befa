// The product's user-facing texts. Where the product has fixed wording (toasts, labels, validation
// messages) it is kept exactly and tests assert it; the rest is Berth's own, for the screens and
// states that wording does not cover. Screens, toasts and tests import them from here so that a
// wording change happens in one place.

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
  dashboardBody: "The page you're looking for doesn't exist or you may need to sign in to access it.",
  backToDashboard: "Back to Dashboard",
  goToDashboard: "Go to Dashboard",
  goHome: "Go to Home",
  signIn: "Sign In",
} as const;

export const DASHBOARD_TEXT = {
  /** The header's button: "Upgrade to Pro" with the built-in plans, else the plan 'Upgrade' offers. */
  upgrade: (plan: string) => `Upgrade to ${plan}`,
  nav: {
    dashboard: "Dashboard",
    sites: "My Sites",
    domains: "Domains",
    integrations: "Integrations",
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
    // The fourth entry was "AI Optimization": Berth checks each publish with plain rules and
    // learns nothing, so the menu names what it does, as its card does.
    featureItems: ["Uptime Guarantee", "One-Click Rollbacks", "CDN Integration", "Publish Check", "Developer Tools"],
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

/** Berth's own texts of the sign-in, sign-up and password screens (titles, hints, labels). */
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
    emailNotVerified: "Your e-mail address is not confirmed yet. We've sent you a new confirmation link — open it, then sign in.",
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

/** Berth's own texts of the dashboard shell, beyond its fixed labels (plans, menus; the bell's are in notifications.ts). */
export const DASHBOARD_SHELL_TEXT = {
  upgradeTitle: "Plans",
  upgradeBody: (plan: string) => `Compare the plans. ${plan} is arranged by the operator of this Berth server.`,
  /** For an account no plan is offered above: on Pro, with the built-in plans. */
  upgradeBodyPro: (plan: string) => `Your account is on ${plan}. Here is what each plan includes.`,
  upgradeContinue: "Continue to billing",
  upgradeRequest: (plan: string) => `Request ${plan}`,
  upgradeRequestHint: (plan: string) => `Ask for ${plan} and an admin of this server will answer. You'll get a notification either way.`,
  upgradePending: (plan: string) => `Your request for ${plan} is waiting for an admin`,
  upgradePendingBody: (date: string) => `You asked on ${date}. You'll get a notification when it is answered.`,
  upgradeDeclined: (date: string) => `Your last request was declined on ${date}. You can ask again.`,
  upgradeRequested: "Request sent",
  upgradeRequestedBody: "An admin will answer it. You'll get a notification.",
  upgradeRequestFailed: "Could not send the request",
  currentPlan: "Current plan",
  openMenu: "Open menu",
  collapseSidebar: "Collapse sidebar",
  expandSidebar: "Expand sidebar",
  admin: "Admin",
  accountMenu: "Account menu",
} as const;

/** The office hours on one line, in their exact short form: "Mon-Fri 9-6 EST, Sat 10-4 EST, Sun closed". */
export const CONTACT_OFFICE_HOURS_SUMMARY = CONTACT_TEXT.officeHours.map((h) => h.short).join(", ");

/** Labels of the contact form; browser tests find the fields by these. */
export const CONTACT_FORM_TEXT = {
  name: "Name",
  email: "Email",
  subject: "Subject",
  message: "Message",
  submit: "Send Message",
} as const;

/** The operator's admin page (/dashboard/admin): labels, dialogs and toasts. */
export const ADMIN_TEXT = {
  title: "Admin",
  /** `upgrade`: the plans users may ask for ("Pro", or "Maker or Studio"), if any. */
  subtitle: (upgrade: string | undefined) =>
    upgrade
      ? `Every account on this server, the messages sent to its operator and the requests for ${upgrade}.`
      : "Every account on this server and the messages sent to its operator.",
  searchPlaceholder: "Search by name or e-mail",
  searchLabel: "Search users by name or e-mail",
  clearSearch: "Clear search",
  columns: {
    user: "User",
    plan: "Plan",
    storage: "Storage used",
    sites: "Sites",
    status: "Status",
    joined: "Joined",
    actions: "Actions",
  },
  active: "Active",
  banned: "Banned",
  unverified: "Unverified",
  adminBadge: "Admin",
  you: "You",
  previous: "Previous",
  next: "Next",
  /** "1–50 of 123" */
  range: (from: number, to: number, total: number) => `${from}–${to} of ${total}`,
  userCount: (total: number) => `${total} ${total === 1 ? "user" : "users"}`,
  storage: {
    label: "Storage on this server",
    disk: "On disk",
    /** Under the disk figure: how much of it no quota counts. */
    variants: (size: string) => `Includes ${size} of compressed copies, which no quota counts`,
    quotas: "Counted in quotas",
    quotasHint: "Every user's storage added up; a file two users uploaded counts for each",
  },
  actionsFor: (email: string) => `Actions for ${email}`,
  selfActions: "You can't change your own account here. Ask another admin.",
  configAdmin: "Admin by server config",
  configAdminTooltip: "This address is in BERTH_ADMIN_EMAILS. Remove it there and restart Berth to change this.",
  setPlan: (plan: string) => `Set plan: ${plan}`,
  ban: "Ban user",
  unban: "Unban user",
  makeAdmin: "Make admin",
  removeAdmin: "Remove admin",
  sendReset: "Send password-reset e-mail",
  deleteUser: "Delete user",
  banTitle: "Ban this user?",
  banBody: "They are signed out and cannot sign in, and their sites stop being served until you unban them. Nothing is deleted.",
  banConfirm: "Ban user",
  deleteTitle: "Delete this user for good?",
  deleteBody:
    "The account and all of its sites, files and deployments are deleted for good. Their addresses stop working at once. This cannot be undone.",
  deleteConfirmLabel: (email: string) => `Type ${email} to confirm`,
  deleteConfirm: "Delete user",
  cancel: "Cancel",
  planChanged: (plan: string) => `Plan set to ${plan}`,
  bannedToast: "User banned",
  unbannedToast: "User unbanned",
  promoted: "Admin access granted",
  demoted: "Admin access removed",
  resetSent: "Password-reset e-mail sent",
  resetSentBody: (email: string) => `A reset link is on its way to ${email}.`,
  deleted: "User deleted",
  deletedBody: (email: string) => `${email} and all of their data were deleted.`,
  actionFailed: "Could not update the user",
  resetFailed: "Could not send the e-mail",
  deleteFailed: "Could not delete the user",
  loadFailed: "Could not load users",
  loadFailedBody: "The user list could not be loaded. Check your connection and try again.",
  tryAgain: "Try again",
  noUsers: "No users yet",
  noUsersBody: "Accounts appear here as people sign up.",
  noMatches: "No matching users",
  noMatchesBody: (query: string) => `No user's name or e-mail contains “${query}”.`,
  emptyPage: "This page is empty",
  firstPage: "Go to the first page",
} as const;

/** /dashboard/settings. The fixed labels, placeholders and toasts, kept exactly, beside Berth's own texts for what it added. */
export const SETTINGS_TEXT = {
  title: "Settings",
  subtitle: "Your profile, sign-in security and e-mail preferences.",
  tabs: { profile: "Profile", security: "Security", notifications: "Notifications" },
  profile: {
    title: "Personal information",
    description: "Your name is how Berth greets you; company and website are for your own records.",
    fullName: "Full Name",
    company: "Company",
    companyPlaceholder: "Your company name (optional)",
    website: "Website",
    websitePlaceholder: "Your website URL (optional)",
    save: "Save Changes",
    updated: "Profile updated",
    updatedDescription: "Your profile information has been updated successfully.",
    updateFailed: "Update failed",
    updateFailedDescription: "Failed to update profile. Please try again.",
  },
  avatar: {
    title: "Profile picture",
    description: "Shown in the dashboard's header.",
    upload: "Upload Image",
    remove: "Remove",
    hint: (limit: string) => `PNG, JPEG or WebP, ${limit} at most.`,
    wrongType: "This file is not a PNG, JPEG or WebP image.",
    tooLarge: (limit: string) => `This image is larger than ${limit}. Choose a smaller one.`,
    uploaded: "Profile picture updated",
    uploadFailed: "Upload failed",
    removed: "Profile picture removed",
    removeFailed: "Could not remove the picture",
  },
  account: {
    title: "Account Information",
    email: "Email",
    accountType: "Account Type",
    memberSince: "Member Since",
    comparePlans: "Compare plans",
  },
  password: {
    title: "Change password",
    description: "Changing your password signs you out on every other device.",
    current: "Current Password",
    next: "New Password",
    confirm: "Confirm New Password",
    hint: (min: number) => `At least ${min} characters.`,
    tooShort: (min: number) => `Password must be at least ${min} characters`,
    mismatch: "Passwords do not match",
    currentRequired: "Enter your current password",
    wrongCurrent: "Your current password is incorrect",
    submit: "Update Password",
    changed: "Password changed",
    changedDescription: "Your other devices have been signed out.",
    failed: "Could not change your password",
  },
  sessions: {
    title: "Active sessions",
    description: "Browsers and devices where you're signed in. Sign out any you don't recognise.",
    thisDevice: "This device",
    revoke: "Revoke",
    revokeTitle: "Sign out this session?",
    revokeBody: (what: string) => `${what} will be signed out and will need your password to sign in again.`,
    revoked: "Session signed out",
    revokeOthers: "Sign out all other sessions",
    revokeOthersTitle: "Sign out everywhere else?",
    revokeOthersBody: "Every other browser and device signed in to your account will be signed out. This one stays signed in.",
    revokedOthers: "Other sessions signed out",
    failed: "Could not sign out the session",
    loadFailed: "Could not load your sessions",
    onlyThis: "This is the only device signed in to your account.",
    lastActive: (ago: string) => `Active ${ago}`,
    unknownIp: "Unknown address",
  },
  twoFactor: {
    title: "Two-factor authentication",
    description: "Ask for a code from an authenticator app as well as your password when you sign in.",
    on: "On",
    off: "Off",
    onBody: "Signing in asks for a code from your authenticator app.",
    offBody: "Add a second step to sign-in with an app such as 1Password, Authy or Google Authenticator.",
    enable: "Enable",
    disable: "Disable",
    regenerate: "Regenerate backup codes",
    passwordTitle: "Confirm your password",
    enablePasswordBody: "Enter your password to start setting up two-factor authentication.",
    disableTitle: "Turn off two-factor authentication?",
    disableBody: "Signing in will only ask for your password. Enter it to confirm.",
    regenerateTitle: "Regenerate backup codes",
    regenerateBody: "Your old backup codes stop working. Enter your password to get new ones.",
    password: "Password",
    continue: "Continue",
    scanTitle: "Scan the QR code",
    // A non-breaking hyphen keeps "6-digit" on one line.
    scanBody: "Scan this code with your authenticator app, then enter the 6\u2011digit code it shows.",
    qrAlt: "QR code for your authenticator app",
    manualEntry: "Can't scan it? Enter this key in the app:",
    secretLabel: "Setup key",
    copyKey: "Copy key",
    keyCopied: "Key copied",
    code: "6-digit code",
    verify: "Verify and turn on",
    codeInvalid: "Enter the 6-digit code from your app.",
    backupTitle: "Save your backup codes",
    backupBody:
      "Each code signs you in once if you lose your phone. Store them somewhere safe, such as a password manager. They won't be shown again.",
    copy: "Copy",
    copied: "Backup codes copied",
    download: "Download",
    done: "I've saved my codes",
    enabled: "Two-factor authentication is on",
    disabled: "Two-factor authentication is off",
    regenerated: "New backup codes created",
    failed: "Something went wrong",
  },
  notifications: {
    title: "Notifications",
    description: "Choose where each kind of notice reaches you: the bell's feed, e-mail, or both. Account and security mail is always sent.",
    kind: "Notice",
    feed: "Feed",
    email: "E-mail",
    channelLabel: (channel: "Feed" | "E-mail", kind: string) => `${kind}: ${channel.toLowerCase()}`,
    summaryTitle: "Weekly summary",
    weeklySummary: "Weekly summary",
    weeklySummaryBody: "A short report of your sites' visits, by e-mail once a week.",
    saved: "Notification preferences saved",
    turnedOn: (what: string) => `${what} turned on.`,
    turnedOff: (what: string) => `${what} turned off.`,
    failed: "Could not save your preferences",
    loadFailed: "Could not load your preferences",
  },
  tryAgain: "Try again",
} as const;

/** /auth/two-factor: the second step of signing in. */
export const TWO_FACTOR_SCREEN_TEXT = {
  title: "Two-factor authentication",
  subtitle: "Open your authenticator app and enter the 6\u2011digit code for Berth.",
  backupSubtitle: "Enter one of the backup codes you saved when you turned on two-factor authentication.",
  code: "Authentication code",
  backupCode: "Backup code",
  verify: "Verify",
  useBackup: "Use a backup code instead",
  useApp: "Use your authenticator app instead",
  trustDevice: "Trust this device for 30 days",
  invalidCode: "That code didn't work. Check your app and try again.",
  invalidBackupCode: "That backup code didn't work. Each code can be used only once.",
  codeRequired: "Enter the 6-digit code from your app.",
  backupRequired: "Enter a backup code.",
  expired: "Your sign-in has expired. Please sign in again.",
  backToSignIn: "Back to Sign In",
} as const;
