// The settings page's tab, read from ?tab=.

export const SETTINGS_TABS = ["profile", "security", "notifications"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** Unknown or missing → Profile. */
export function parseSettingsTab(value: string | null): SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? "") ? (value as SettingsTab) : "profile";
}
