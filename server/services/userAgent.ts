// The parser lives in common/ because the dashboard names the browsers of a share link's opens too.
export { parseUserAgent, type UserAgentInfo } from "../../common/userAgent";
