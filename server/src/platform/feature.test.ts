import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { defineFeature, type FeatureContext, type PlatformContext } from './feature.ts';

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
