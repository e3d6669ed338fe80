import { describe, expect, it } from 'vitest';
import { CONFIG_MODULES, ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('works with no environment at all (embedded defaults)', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toMatch(/^sqlite:.*data[/\\]guildhall\.db$/);
    expect(c.auth.discord.apiUrl).toBe('https://discord.com/api');
    expect(c.auth.discord.authorizeUrl).toBe('https://discord.com/oauth2/authorize');
    expect(c.discord.adminDiscordIds).toEqual([]);
    expect(c.redisPrefix).toBe('guildhall');
    expect(c.metricsToken).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['ADMIN_DISCORD_IDS', '123,abc'],
    ['DISCORD_API_URL', 'not a url'],
    ['DISCORD_REDIRECT_URI', 'ftp://x'],
    ['PUBLIC_URL', 'example.org'],
    ['ACCESS_CODE', 'short'],
    ['MAX_UPLOAD_BYTES', '-1'],
    ['REDIS_URL', 'http://x'],
    ['LOG_LEVEL', 'loud'],
    ['METRICS_TOKEN', 'short'],
    ['REDIS_PREFIX', 'has spaces'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', 'proxy.example.org'],
  ])('a wrong %s stops startup with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it("every declared variable reaches the config: it names its field, or its module's build reads it", () => {
    const unread = CONFIG_MODULES.flatMap((m) =>
      Object.entries(m.vars)
        .filter(([name, decl]) => decl.field === undefined && !String(m.build ?? '').includes(name))
        .map(([name]) => `${name} (${m.title})`),
    );
    expect(unread).toEqual([]);
  });

  it('parses lists and strips trailing slashes from URLs', () => {
    const c = loadConfig({
      ADMIN_DISCORD_IDS: ' 175928847299117063 , 175928847299117064 ',
      DISCORD_API_URL: 'http://127.0.0.1:9999/api/',
    });
    expect(c.discord.adminDiscordIds).toEqual(['175928847299117063', '175928847299117064']);
    expect(c.auth.discord.apiUrl).toBe('http://127.0.0.1:9999/api');
  });
});

describe('TRUST_PROXY (issue 16: a hop count or proxy list, as Fastify takes it)', () => {
  it.each([
    ['false', false],
    ['true', true],
    ['1', 1],
    ['2', 2],
    ['10.0.0.2, 10.0.0.0/24,::1', ['10.0.0.2', '10.0.0.0/24', '::1']],
  ])('%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });
});
