import { randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { StoreUnavailableError } from './errors.ts';
import { verifying } from './integrity.ts';
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
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;

  constructor(opts: S3StoreOptions) {
    this.bucket = opts.bucket;
    this.prefix = opts.prefix && !opts.prefix.endsWith('/') ? `${opts.prefix}/` : opts.prefix;
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
      // The SDK's default adds CRC checksums and sends stream bodies aws-chunked with a trailer, which
      // several S3-compatible servers store as data (docs/files.md). Integrity is ours: a CRC32C per chunk,
      // checked on every whole-chunk read.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** The bucket answers with these credentials. */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, size?: number): Promise<BlobId> {
    const id = randomUUID().replaceAll('-', '');
    // One in-memory piece of known size (the chunker's case) is sent as it is; anything else streams.
    const pieces = Array.isArray(body) ? (body as Uint8Array[]) : null;
    const payload =
      pieces?.length === 1 && pieces[0] && (size === undefined || size === pieces[0].length)
        ? pieces[0]
        : Readable.from(body, { objectMode: false });
    const upload = new Upload({
      client: this.client,
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
      await upload.done();
    } catch (e) {
      // A single PutObject that failed midway stores nothing; make sure of it.
      await this.delete(id).catch(() => {});
      throw new StoreUnavailableError(`S3 upload: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    return id;
  }

  async get(id: BlobId, range?: ByteRange, check?: ChunkCheck): Promise<Readable> {
    const key = this.keyOf(id);
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = res.Body as Readable | undefined;
      if (!body) throw new Error(`S3 returned no body for ${key}`);
      const whole = !range || (range.start === 0 && check !== undefined && range.end === check.size - 1);
      // A whole chunk is checked on the way; a partial range is not (checking it would fetch the rest).
      return whole && check ? pipeline(body, verifying(check, key), () => {}) : body;
    } catch (e) {
      if (e instanceof NoSuchKey || (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404)) {
        throw new Error(`Blob ${id} is missing from bucket ${this.bucket}`);
      }
      throw new StoreUnavailableError(`S3 download: ${e instanceof Error ? e.message : String(e)}`, e);
    }
  }

  async delete(id: BlobId): Promise<void> {
    // DeleteObject of a missing key succeeds (S3 semantics), which is what the interface wants.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(id) }));
  }

  async *list(): AsyncIterable<StoredBlobInfo> {
    const prefix = `${this.prefix}chunks/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
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
    this.client.destroy();
  }

  /** The only place a key is built, and only from an id this store generated. */
  private keyOf(id: BlobId): string {
    if (!ID_PATTERN.test(id)) throw new Error(`Not an S3 blob id: ${JSON.stringify(id.slice(0, 80))}`);
    return `${this.prefix}chunks/${id.slice(0, 2)}/${id}`;
  }
}
