export * from './pictionary.ts';
export * from './pictionary-api.ts';
export * from './pictionary-drawing.ts';
export * from './realtime.ts';
export * from './tictactoe.ts';
export * from './tictactoe-api.ts';
