import { randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { StoreUnavailableError, withDeadline } from './errors.ts';
import { BlobMissingError, verifying } from './integrity.ts';
import type { BlobId, BlobStore, ByteRange, ChunkCheck, StoredBlobInfo } from './types.ts';

export type S3StoreOptions = {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Keys start with this (several installs can share a bucket); '' by default. */
  prefix: string;
  /** A call that moves no byte for this long fails (FILES_STORE_TIMEOUT_MS); 120 s by default. */
  timeoutMs?: number;
};

const ID_PATTERN = /^[0-9a-f]{32}$/;
/** Bodies up to this size go up in one PutObject; larger ones as a multipart upload of such parts. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;

/**
 * Chunks as objects in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2, Garage),
 * keyed `<prefix>chunks/<aa>/<id>` with ids of 128 random bits the store picks. A chunk (8 MiB) goes up
 * in one PutObject; anything larger through a multipart upload (`@aws-sdk/lib-storage`). Reads are
 * GetObject with a Range header, so a download fetches only the bytes it sends.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  /** Each put is one network round trip: a few at once keep the link busy. */
  readonly parallelPuts = 3;
  readonly bucket: string;
  private readonly prefix: string;
  private readonly options: S3StoreOptions;
  private readonly timeoutMs: number;
  private loaded: Promise<Sdk> | null = null;

  constructor(opts: S3StoreOptions) {
    this.bucket = opts.bucket;
    this.prefix = opts.prefix && !opts.prefix.endsWith('/') ? `${opts.prefix}/` : opts.prefix;
    this.options = opts;
    this.timeoutMs = opts.timeoutMs ?? 120_000;
  }

  /**
   * The AWS SDK and a client, loaded on first use: the SDK is ~8 MB of heap, which a portal without S3
   * should not carry (a larger heap makes every garbage collection during an upload dearer).
   */
  private sdk(): Promise<Sdk> {
    this.loaded ??= loadSdk(this.options);
    return this.loaded;
  }

  async check(): Promise<void> {
    const { client, s3 } = await this.sdk();
    await client.send(new s3.HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, size?: number): Promise<BlobId> {
    const id = randomUUID().replaceAll('-', '');
    // One in-memory piece of known size (the chunker's case) is sent as it is; anything else streams.
    const pieces = Array.isArray(body) ? (body as Uint8Array[]) : null;
    const payload =
      pieces?.length === 1 && pieces[0] && (size === undefined || size === pieces[0].length)
        ? pieces[0]
        : Readable.from(body, { objectMode: false });
    const { client, Upload } = await this.sdk();
    const upload = new Upload({
      client,
      params: {
        Bucket: this.bucket,
        Key: this.keyOf(id),
        Body: payload,
        ContentType: 'application/octet-stream',
      },
      partSize: S3_PART_BYTES,
      queueSize: PARTS_AT_ONCE,
      // lib-storage aborts the multipart upload itself when a part fails.
      leavePartsOnError: false,
    });
    try {
      // A frozen or rate-limiting service fails the chunk after the deadline instead of holding it.
      await withDeadline(this.timeoutMs, 'S3 upload', async (signal) => {
        signal.addEventListener('abort', () => void upload.abort().catch(() => {}));
        return upload.done();
      });
    } catch (e) {
      // A single PutObject that failed midway stores nothing; make sure of it.
      await this.delete(id).catch(() => {});
      throw new StoreUnavailableError(`S3 upload: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    return id;
  }

  async get(id: BlobId, range?: ByteRange, check?: ChunkCheck): Promise<Readable> {
    const key = this.keyOf(id);
    const { client, s3 } = await this.sdk();
    try {
      // Until the answer's headers: the deadline; after, the socket's idle timeout (socketTimeout).
      const res = await withDeadline(this.timeoutMs, 'S3 download', (abortSignal) =>
        client.send(
          new s3.GetObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
          { abortSignal },
        ),
      );
      const body = res.Body as Readable | undefined;
      if (!body) throw new Error(`S3 returned no body for ${key}`);
      const whole = !range || (range.start === 0 && check !== undefined && range.end === check.size - 1);
      // A whole chunk is checked on the way; a partial range is not (checking it would fetch the rest).
      return whole && check ? pipeline(body, verifying(check, key), () => {}) : body;
    } catch (e) {
      if (
        e instanceof s3.NoSuchKey ||
        (e instanceof s3.S3ServiceException && e.$metadata.httpStatusCode === 404)
      ) {
        throw new BlobMissingError(`Blob ${id} is missing from bucket ${this.bucket}`);
      }
      throw new StoreUnavailableError(`S3 download: ${e instanceof Error ? e.message : String(e)}`, e);
    }
  }

  async delete(id: BlobId): Promise<void> {
    // DeleteObject of a missing key succeeds (S3 semantics), which is what the interface wants.
    const { client, s3 } = await this.sdk();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(id) }));
  }

  async *list(): AsyncIterable<StoredBlobInfo> {
    const prefix = `${this.prefix}chunks/`;
    const { client, s3 } = await this.sdk();
    let token: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        const id = o.Key?.split('/').at(-1) ?? '';
        if (ID_PATTERN.test(id) && o.Key === this.keyOf(id)) {
          yield { id, createdAt: o.LastModified ?? new Date(0) };
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    if (this.loaded) (await this.loaded).client.destroy();
  }

  /** The only place a key is built, and only from an id this store generated. */
  private keyOf(id: BlobId): string {
    if (!ID_PATTERN.test(id)) throw new Error(`Not an S3 blob id: ${JSON.stringify(id.slice(0, 80))}`);
    return `${this.prefix}chunks/${id.slice(0, 2)}/${id}`;
  }
}

type Sdk = {
  s3: typeof import('@aws-sdk/client-s3');
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  client: S3Client;
};

async function loadSdk(opts: S3StoreOptions): Promise<Sdk> {
  const [s3, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  const client = new s3.S3Client({
    endpoint: opts.endpoint,
    region: opts.region,
    forcePathStyle: opts.forcePathStyle,
    credentials:
      opts.accessKeyId && opts.secretAccessKey
        ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
        : undefined,
    // The SDK's default adds CRC checksums and sends stream bodies aws-chunked with a trailer, which
    // several S3-compatible servers store as data (docs/files.md). Integrity is ours: a CRC32C per
    // chunk, checked on every whole-chunk read.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      // A connection or a transfer that goes silent fails instead of hanging (the default waits forever),
      // and enough sockets that downloads held by slow clients cannot queue every upload behind them.
      connectionTimeout: Math.min(opts.timeoutMs ?? 120_000, 10_000),
      socketTimeout: opts.timeoutMs ?? 120_000,
      httpAgent: { maxSockets: 256 },
      httpsAgent: { maxSockets: 256 },
    },
  });
  return { s3, Upload: storage.Upload, client };
}
