import { AccountInfo } from "./AccountInfo";
import { AvatarCard } from "./AvatarCard";
import { ProfileForm } from "./ProfileForm";

/** The picture and the form on the left; the account's facts beside them from 1024 px. */
export function ProfileTab() {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_340px]">
      <div className="flex min-w-0 flex-col gap-6">
        <AvatarCard />
        <ProfileForm />
      </div>
      <AccountInfo />
    </div>
  );
}
