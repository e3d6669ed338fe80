import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { beatOn, defineFeature, type FeatureContext, type PlatformContext } from './feature.ts';

/** The platform's context with only the config filled: what mount needs to hand a feature its slice. */
function platformWith(config = loadConfig({ DATA_DIR: '/tmp/guildhall-feature-test' })): PlatformContext {
  return { config } as PlatformContext;
}

describe('a feature gets only its own config slice (issue 24)', () => {
  it("hands the feature's context the slice its definition picks, not the whole configuration", () => {
    const seen: FeatureContext<{ idleLeaveMs: number }>[] = [];
    const feature = defineFeature<undefined, { idleLeaveMs: number }>({
      name: 'probe',
      config: (c) => ({ idleLeaveMs: c.music.idleLeaveMs }),
      routes: (ctx) => {
        seen.push(ctx);
        return async () => {};
      },
    });
    feature.mount(platformWith(loadConfig({ DATA_DIR: '/tmp/x', MUSIC_IDLE_LEAVE_SECONDS: '7' })));
    expect(seen[0]?.config).toEqual({ idleLeaveMs: 7000 });
  });

  it('a feature that declares no settings gets none', () => {
    let config: unknown = 'unset';
    defineFeature({
      name: 'plain',
      routes: (ctx) => {
        config = ctx.config;
        return async () => {};
      },
    }).mount(platformWith());
    expect(config).toBeUndefined();
  });
});

describe('beatOn: a beat on the injected clock', () => {
  /** A clock moved by hand: `advance` runs each timer that fell due, awaiting it. */
  function handClock() {
    let now = 0;
    const timers = new Map<number, { at: number; fn: () => unknown }>();
    let next = 0;
    return {
      now: () => now,
      setTimeout(fn: () => unknown, ms: number) {
        timers.set(++next, { at: now + ms, fn });
        return next;
      },
      clearTimeout: (h: unknown) => void timers.delete(h as number),
      pending: () => timers.size,
      async advance(ms: number) {
        const until = now + ms;
        for (;;) {
          const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
          if (!due) break;
          timers.delete(due[0]);
          now = due[1].at;
          await due[1].fn();
        }
        now = until;
      },
    };
  }

  it('ticks once per interval as the clock moves, and never after its stop', async () => {
    const clock = handClock();
    const ticks: number[] = [];
    const stop = beatOn(clock, 100, async () => {
      ticks.push(clock.now());
    });
    await clock.advance(99);
    expect(ticks).toEqual([]);
    await clock.advance(1);
    expect(ticks).toEqual([100]);
    await clock.advance(250);
    expect(ticks).toEqual([100, 200, 300]);
    stop();
    expect(clock.pending()).toBe(0);
    await clock.advance(1000);
    expect(ticks).toEqual([100, 200, 300]);
  });

  it('arms the next beat only once a tick settled, even a failed one', async () => {
    const clock = handClock();
    let settle: () => void = () => {};
    let ticks = 0;
    const stop = beatOn(clock, 100, () => {
      ticks += 1;
      return new Promise<void>((resolve) => {
        settle = resolve;
      });
    });
    const moving = clock.advance(100);
    await Promise.resolve();
    expect(ticks).toBe(1);
    expect(clock.pending()).toBe(0); // a slow tick: no second beat armed meanwhile
    settle();
    await moving;
    expect(clock.pending()).toBe(1);
    stop();

    const failing = handClock();
    let tries = 0;
    const stopFailing = beatOn(failing, 100, async () => {
      tries += 1;
      throw new Error('database down');
    });
    await failing.advance(100).catch(() => {});
    expect(tries).toBe(1);
    expect(failing.pending()).toBe(1);
    stopFailing();
  });
});
