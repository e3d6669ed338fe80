// The first thing every entry point loads (plain JavaScript, so that any Node can read it): on a Node
// older than 24 the server and the admin command would otherwise die with an obscure error
// ("No such built-in module: node:sqlite", ERR_UNKNOWN_FILE_EXTENSION) instead of saying what is wrong.
// Run directly (`node server/src/check-node.mjs`) or imported first (`--import` / a side-effect import).
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (!(major >= REQUIRED_MAJOR)) {
  process.stderr.write(
    `Guildhall requires Node ${REQUIRED_MAJOR} or newer; this is Node ${process.versions.node} (${process.execPath}).\n`,
  );
  process.exit(1);
}
