/**
 * The URL of a worker-thread module next to the caller: `./name.ts` when running from sources,
 * `./name.mjs` in the production bundle (server/build.ts emits every `*-worker.ts` as an entry in dist/).
 */
export function workerUrl(name: string, callerUrl: string): URL {
  // Bundled chunks and worker entries all sit flat in server/dist.
  return new URL(callerUrl.endsWith('.ts') ? `./${name}.ts` : `./${name}.mjs`, callerUrl);
}
