// /dashboard/settings: Profile, Security and Notifications. The tab lives in the URL
// (?tab=security), so a reload or a link opens the same one.
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { Bell, ShieldCheck, UserRound, type LucideIcon } from "lucide-react";
import { PRODUCT_NAME, SETTINGS_TEXT as T } from "../../../common/texts";
import { NotificationsTab } from "../../components/settings/NotificationsTab";
import { ProfileTab } from "../../components/settings/ProfileTab";
import { SecurityTab } from "../../components/settings/SecurityTab";
import { parseSettingsTab, SETTINGS_TABS, type SettingsTab } from "../../components/settings/tabs";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/Tabs";

const TAB_ICON: Record<SettingsTab, LucideIcon> = {
  profile: UserRound,
  security: ShieldCheck,
  notifications: Bell,
};

export function Settings() {
  const [search, setSearch] = useSearchParams();
  const tab = parseSettingsTab(search.get("tab"));

  useEffect(() => {
    document.title = `${T.title} · ${PRODUCT_NAME}`;
  }, []);

  const selectTab = (next: string) => {
    const params = new URLSearchParams(search);
    const value = parseSettingsTab(next);
    if (value === "profile") params.delete("tab");
    else params.set("tab", value);
    setSearch(params, { replace: true });
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{T.title}</h1>
        <p className="mt-1.5 max-w-2xl text-sm leading-relaxed text-muted-foreground sm:text-base">{T.subtitle}</p>
      </div>
      <Tabs value={tab} onValueChange={selectTab} className="flex flex-col gap-6">
        <TabsList aria-label="Settings sections">
          {SETTINGS_TABS.map((value) => {
            const Icon = TAB_ICON[value];
            return (
              <TabsTrigger key={value} value={value}>
                <Icon aria-hidden className="hidden sm:block" />
                {T.tabs[value]}
              </TabsTrigger>
            );
          })}
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab />
        </TabsContent>
        <TabsContent value="security">
          <SecurityTab />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationsTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
