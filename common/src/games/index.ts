export * from './realtime.ts';
export * from './tictactoe.ts';
export * from './tictactoe-api.ts';
