// An edge worker's logger: each line goes to the main thread, which writes it with its own logger
// (level, format, destination), marked with the worker's number.
import type { FastifyBaseLogger } from "fastify";
import type { LogLevel } from "./protocol";

export type LogLine = (level: LogLevel, fields: Record<string, unknown> | undefined, message: string | undefined) => void;

export function threadLogger(post: LogLine, level: string): FastifyBaseLogger {
  const at =
    (name: LogLevel) =>
    (first?: unknown, second?: unknown): void => {
      if (typeof first === "string") return post(name, undefined, first);
      post(name, first as Record<string, unknown> | undefined, typeof second === "string" ? second : undefined);
    };
  const logger = {
    level,
    fatal: at("fatal"),
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    debug: at("debug"),
    trace: at("trace"),
    silent: () => {},
    child: () => logger,
  };
  return logger;
}
