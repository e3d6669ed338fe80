import fs from 'node:fs';

/**
 * The release this process runs: `version` of the repository's package.json (semver; CHANGELOG.md).
 * Read beside the code: `../../package.json` is the root manifest from server/src/platform and from the
 * flat server/dist bundle alike (the container image keeps that layout).
 */
export const APP_VERSION: string = readVersion();

function readVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(fs.readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'guildhall' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not there from this layout: try the next.
    }
  }
  return 'unknown';
}
