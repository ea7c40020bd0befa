// Rows → the shapes of common/deviceLogin.ts. Neither hash leaves the server, nor who answered.
import { deviceTokenName, formatUserCode, type DeviceLoginResponse } from "../../../common/deviceLogin";
import type { DeviceLogin } from "../../db/repositories/deviceLogins";

export function presentDeviceLogin(login: DeviceLogin): DeviceLoginResponse {
  return {
    user_code: formatUserCode(login.user_code),
    client_name: login.client_name,
    token_name: deviceTokenName(login.client_name),
    status: login.status,
    created_at: login.created_at.toISOString(),
    expires_at: login.expires_at.toISOString(),
  };
}
