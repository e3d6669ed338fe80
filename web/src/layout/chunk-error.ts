/**
 * True for the errors browsers raise when a lazily loaded page file cannot be fetched (Chromium,
 * Firefox and Safari word it differently), typically because a deploy replaced the hashed files.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
      error.message,
    ) || error.name === 'ChunkLoadError'
  );
}
