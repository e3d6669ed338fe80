export * from './api.ts';
export * from './discord.ts';
export * from './levels.ts';
export * from './texts.ts';
export * from './timings.ts';
export * from './user.ts';
