// First: on an older Node this stops with one clear line before anything else is loaded.
import './check-node.mjs';
import module from 'node:module';

// Cache compiled bytecode on disk (Node ≥ 22): later starts skip most parsing and compilation.
// Loaded before the app (hence the dynamic import) so the cache covers every module.
module.enableCompileCache?.();
await import('./start.ts');
