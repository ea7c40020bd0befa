import { pino, type Logger } from "pino";

/** JSON logs in production; readable lines when a person is watching the terminal. */
export function createLogger(level: string): Logger {
  const pretty = process.stdout.isTTY && process.env.BERTH_LOG_FORMAT !== "json";
  return pino({
    level,
    ...(pretty ? { transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } } } : {}),
  });
}
