import { describe, expect, it } from "vitest";
import { UsageError } from "./args";
import { isBackupCommand, parseBackupArgs } from "./backupArgs";

describe("berth backup and restore command lines", () => {
  it.each([
    [["backup", "berth.tar.gz"], { kind: "backup", file: "berth.tar.gz" }],
    [["restore", "berth.tar.gz"], { kind: "restore", file: "berth.tar.gz" }],
    [["restore", "berth.tar.gz", "--data-dir", "/srv/berth"], { kind: "restore", file: "berth.tar.gz", dataDir: "/srv/berth" }],
    [["restore", "--data-dir=/srv/berth", "berth.tar.gz"], { kind: "restore", file: "berth.tar.gz", dataDir: "/srv/berth" }],
    [["backup", "--help"], { kind: "help" }],
    [["restore", "-h"], { kind: "help" }],
  ])("%j", (argv, parsed) => {
    expect(isBackupCommand(argv)).toBe(true);
    expect(parseBackupArgs(argv)).toEqual(parsed);
  });

  it.each([
    [["backup"], /backup <file>/],
    [["backup", "a", "b"], /backup <file>/],
    [["restore"], /restore <file> \[--data-dir <dir>\]/],
    [["restore", "a", "--data-dir"], /--data-dir needs a directory/],
    [["backup", "a", "--data-dir", "x"], /backup does not take --data-dir/],
    [["restore", "a", "--force"], /Unknown option --force/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseBackupArgs(argv)).toThrow(UsageError);
    expect(() => parseBackupArgs(argv)).toThrow(message);
  });

  it("leaves every other command to the admin command line", () => {
    expect(isBackupCommand(["admin", "list-users"])).toBe(false);
    expect(isBackupCommand([])).toBe(false);
  });
});
