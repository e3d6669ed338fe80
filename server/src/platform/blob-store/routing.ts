import type { Readable } from 'node:stream';
import type {
  BlobId,
  BlobReader,
  BlobStore,
  ByteRange,
  ChunkCheck,
  FileScopedStore,
  StoredBlobInfo,
} from './types.ts';

export type StoreKind = 'local' | 's3' | 'discord';

/**
 * Every blob id in the database names its store: local ids are bare (as before stores were added),
 * S3 ids start with `s3:`, Discord ids with `discord:`. So one database can hold files in several
 * stores at once — during a migration, or after FILES_STORE changed — and each is read from where it is.
 */
const PREFIX: Record<StoreKind, string> = { local: '', s3: 's3:', discord: 'discord:' };

export function kindOf(id: BlobId): StoreKind {
  if (id.startsWith(PREFIX.s3)) return 's3';
  if (id.startsWith(PREFIX.discord)) return 'discord';
  return 'local';
}

/** The garbage id that deletes a whole Discord thread (a file's chunks in one call). */
export function threadGarbageId(threadId: string): BlobId {
  return `${PREFIX.discord}${threadId}`;
}

/**
 * The store the app uses: new blobs go to the configured (primary) store; reads and deletes go to the
 * store an id names. A store whose settings are absent cannot be reached, and saying so is an error.
 */
export class RoutingBlobStore implements BlobStore {
  readonly kind: StoreKind;
  readonly parallelPuts?: number;
  private readonly stores: Partial<Record<StoreKind, BlobStore>>;

  constructor(primary: StoreKind, stores: Partial<Record<StoreKind, BlobStore>>) {
    if (!stores[primary]) throw new Error(`The ${primary} store is not configured`);
    this.kind = primary;
    this.stores = stores;
    this.parallelPuts = stores[primary].parallelPuts;
  }

  /** Every configured store answers (new chunks go to the primary; the others still serve reads). */
  async check(): Promise<void> {
    await Promise.all(
      Object.entries(this.stores).map(async ([kind, store]) => {
        try {
          await store?.check?.();
        } catch (err) {
          throw new Error(`${kind} store: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    );
  }

  /** The inner store of a kind, if configured (the migration writes to one that is not primary). */
  storeOf(kind: StoreKind): BlobStore | undefined {
    return this.stores[kind];
  }

  /** A view that writes to `kind` (the migration's destination) and reads anywhere. */
  writingTo(kind: StoreKind): RoutingBlobStore {
    return new RoutingBlobStore(kind, this.stores);
  }

  async put(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, size?: number): Promise<BlobId> {
    return PREFIX[this.kind] + (await this.primary().put(body, size));
  }

  get(id: BlobId, range?: ByteRange, check?: ChunkCheck): Promise<Readable> {
    const [store, raw] = this.route(id);
    return store.get(raw, range, check);
  }

  async openReader(id: BlobId): Promise<BlobReader | null> {
    const [store, raw] = this.route(id);
    return store.openReader ? store.openReader(raw) : null;
  }

  async delete(id: BlobId): Promise<void> {
    const [store, raw] = this.route(id);
    await store.delete(raw);
  }

  async deleteMany(ids: BlobId[]): Promise<BlobId[]> {
    const done: BlobId[] = [];
    for (const kind of Object.keys(PREFIX) as StoreKind[]) {
      const mine = ids.filter((id) => kindOf(id) === kind);
      if (mine.length === 0) continue;
      const store = this.stores[kind];
      if (!store) continue; // stays queued until that store is configured again
      const raw = mine.map((id) => id.slice(PREFIX[kind].length));
      if (store.deleteMany) {
        for (const r of await store.deleteMany(raw)) done.push(PREFIX[kind] + r);
        continue;
      }
      for (const r of raw) {
        try {
          await store.delete(r);
          done.push(PREFIX[kind] + r);
        } catch {
          // stays queued for the next run
        }
      }
    }
    return done;
  }

  forFile(
    fileId: string,
    onGroup?: (group: string) => Promise<void>,
    group?: string | null,
  ): FileScopedStore {
    const primary = this.primary();
    const inner = primary.forFile?.(fileId, onGroup, group);
    const prefix = PREFIX[this.kind];
    return {
      kind: this.kind,
      parallelPuts: this.parallelPuts,
      put: async (body, size) => prefix + (await (inner ?? primary).put(body, size)),
      get: (id, range, check) => this.get(id, range, check),
      delete: (id) => this.delete(id),
      deleteMany: (ids) => this.deleteMany(ids),
      group: () => inner?.group() ?? null,
    };
  }

  async *list(): AsyncIterable<StoredBlobInfo> {
    for (const kind of Object.keys(PREFIX) as StoreKind[]) {
      const store = this.stores[kind];
      if (!store?.list) continue;
      for await (const b of store.list()) yield { ...b, id: PREFIX[kind] + b.id };
    }
  }

  async removeIncomplete(olderThan: Date): Promise<number> {
    let n = 0;
    for (const store of Object.values(this.stores)) n += (await store.removeIncomplete?.(olderThan)) ?? 0;
    return n;
  }

  async close(): Promise<void> {
    for (const store of Object.values(this.stores)) await store.close?.();
  }

  private primary(): BlobStore {
    return this.stores[this.kind]!;
  }

  private route(id: BlobId): [BlobStore, string] {
    const kind = kindOf(id);
    const store = this.stores[kind];
    if (!store) throw new Error(`Blob ${id.slice(0, 80)} is in the ${kind} store, which is not configured`);
    return [store, id.slice(PREFIX[kind].length)];
  }
}
