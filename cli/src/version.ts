// The CLI's version, from its package.json (bundled into the built file).
import packageJson from "../package.json";

export const CLI_VERSION: string = packageJson.version;
