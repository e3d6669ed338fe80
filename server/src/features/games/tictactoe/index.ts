/** Tic-tac-toe (portal-tools §2–3): its routes and realtime room. */
export { ticTacToeRoutes } from './routes.ts';
export type { TicTacToeTables } from './tables.ts';
