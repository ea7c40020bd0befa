import { describe, expect, it, vi } from "vitest";
import type { ServerEvent } from "../../../../common/sites";
import { openEventStream, reconnectDelay, RECONNECT_DELAYS_MS, type EventSourceLike } from "./eventStream";

describe("reconnectDelay", () => {
  it("waits 1 s, 2 s, 5 s, then 10 s for every later try", () => {
    expect([0, 1, 2, 3, 4, 10, 100].map(reconnectDelay)).toEqual([1000, 2000, 5000, 10000, 10000, 10000, 10000]);
    expect(RECONNECT_DELAYS_MS).toEqual([1000, 2000, 5000, 10000]);
  });

  it("treats odd input as the first attempt", () => {
    expect(reconnectDelay(-1)).toBe(1000);
  });
});

class FakeSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event("open"));
  }
  fail() {
    this.onerror?.(new Event("error"));
  }
  send(data: string) {
    this.onmessage?.({ data } as MessageEvent);
  }
}

function setup() {
  const sources: FakeSource[] = [];
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const onEvent = vi.fn<(event: ServerEvent) => void>();
  const onOpen = vi.fn<(reconnected: boolean) => void>();
  const stop = openEventStream({
    url: "/api/events",
    onEvent,
    onOpen,
    createSource: () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    },
    setTimer: (callback, ms) => {
      const timer = { callback, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  });
  const fire = () => timers[timers.length - 1]!.callback();
  return { sources, timers, onEvent, onOpen, stop, fire };
}

describe("openEventStream", () => {
  it("passes valid events on and ignores anything else", () => {
    const { sources, onEvent } = setup();
    sources[0]!.send(JSON.stringify({ type: "site", site_id: "s1" }));
    sources[0]!.send("not json");
    sources[0]!.send(JSON.stringify({ type: "unknown" }));
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent).toHaveBeenCalledWith({ type: "site", site_id: "s1" });
  });

  it("reconnects after 1, 2, 5, 10, 10 s while failing, and starts over once connected", () => {
    const { sources, timers, fire } = setup();
    for (let i = 0; i < 5; i += 1) {
      sources[sources.length - 1]!.fail();
      fire();
    }
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000, 5000, 10000, 10000]);
    expect(sources.slice(0, -1).every((s) => s.closed)).toBe(true);

    sources[sources.length - 1]!.open();
    sources[sources.length - 1]!.fail();
    expect(timers[timers.length - 1]!.ms).toBe(1000);
  });

  it("tells the caller when a connection is a reconnection", () => {
    const { sources, onOpen, fire } = setup();
    sources[0]!.open();
    sources[0]!.fail();
    fire();
    sources[1]!.open();
    expect(onOpen.mock.calls).toEqual([[false], [true]]);
  });

  it("stops cleanly: closes the source and cancels a pending retry", () => {
    const { sources, timers, stop } = setup();
    sources[0]!.fail();
    stop();
    expect(timers[0]!.cleared).toBe(true);

    const second = setup();
    second.stop();
    expect(second.sources[0]!.closed).toBe(true);
    second.sources[0]!.fail();
    expect(second.timers).toHaveLength(0);
  });
});
