/** What the rest of the app may use of Pictionary: its routes. */
export { pictionaryRoutes } from './routes.ts';
