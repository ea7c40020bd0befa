import { ChangePassword } from "./ChangePassword";
import { SessionsList } from "./SessionsList";
import { TwoFactorCard } from "./TwoFactorCard";

export function SecurityTab() {
  return (
    <div className="flex flex-col gap-6">
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <ChangePassword />
        <TwoFactorCard />
      </div>
      <SessionsList />
    </div>
  );
}
