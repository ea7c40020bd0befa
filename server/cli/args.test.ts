import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "./args";

describe("berth admin command line", () => {
  it.each([
    [["admin", "list-users"], { command: "list-users" }],
    [["admin", "list-users", "--search", "Ada Lovelace"], { command: "list-users", search: "Ada Lovelace" }],
    [["admin", "list-users", "--search=ada", "--page", "3"], { command: "list-users", search: "ada", page: 3 }],
    [["admin", "set-plan", "a@example.com", "pro"], { command: "set-plan", email: "a@example.com", plan: "pro" }],
    [["admin", "set-plan", "a@example.com", "free"], { command: "set-plan", email: "a@example.com", plan: "free" }],
    // Which ids exist is for the server's plans to say (run.ts), not the parser.
    [["admin", "set-plan", "a@example.com", "gold"], { command: "set-plan", email: "a@example.com", plan: "gold" }],
    [["admin", "ban", "a@example.com"], { command: "ban", email: "a@example.com" }],
    [["admin", "unban", "a@example.com"], { command: "unban", email: "a@example.com" }],
    [["admin", "promote", "a@example.com"], { command: "promote", email: "a@example.com" }],
    [["admin", "demote", "a@example.com"], { command: "demote", email: "a@example.com" }],
    [["admin", "reset-password", "a@example.com"], { command: "reset-password", email: "a@example.com" }],
    [["admin", "delete-user", "a@example.com", "--yes"], { command: "delete-user", email: "a@example.com" }],
    [["admin", "delete-user", "--yes", "a@example.com"], { command: "delete-user", email: "a@example.com" }],
  ])("%j", (argv, command) => {
    expect(parseArgs(argv)).toEqual({ kind: "run", json: false, command });
  });

  it("takes --json anywhere", () => {
    expect(parseArgs(["admin", "list-users", "--json"])).toEqual({ kind: "run", json: true, command: { command: "list-users" } });
    expect(parseArgs(["admin", "ban", "--json", "a@example.com"])).toEqual({
      kind: "run",
      json: true,
      command: { command: "ban", email: "a@example.com" },
    });
  });

  it.each([[[]], [["help"]], [["--help"]], [["admin"]], [["admin", "help"]], [["admin", "-h"]]])("%j is help", (argv) => {
    expect(parseArgs(argv)).toEqual({ kind: "help" });
  });

  it.each([
    [["users"], /Unknown command "users"/],
    [["admin", "frobnicate"], /Unknown admin command "frobnicate"/],
    [["admin", "set-plan", "a@example.com"], /set-plan <email> <plan>/],
    [["admin", "ban"], /ban <email>/],
    [["admin", "ban", "a@example.com", "b@example.com"], /ban <email>/],
    [["admin", "delete-user", "a@example.com"], /Add --yes to confirm/],
    [["admin", "delete-user", "a@example.com", "--yes=no"], /--yes takes no value/],
    [["admin", "list-users", "--page", "0"], /--page must be a whole number/],
    [["admin", "list-users", "--page", "2.5"], /--page must be a whole number/],
    [["admin", "list-users", "--search"], /--search needs a value/],
    [["admin", "list-users", "extra"], /list-users \[--search/],
    [["admin", "ban", "a@example.com", "--yes"], /ban does not take --yes/],
    [["admin", "ban", "a@example.com", "--force"], /Unknown option --force/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });
});
