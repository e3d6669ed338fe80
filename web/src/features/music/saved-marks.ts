/** The key of "this song was just saved to that playlist" (portal-tools §4: the marker lasts 3 s). */
export function savedKey(playlistId: string, url: string): string {
  return `${playlistId}\n${url}`;
}
