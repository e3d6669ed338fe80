export { type ProcessExit, ProcessSpawner, type SpawnedProcess } from './spawner.ts';
