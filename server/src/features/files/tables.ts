/** Tables of the files and shares features; joined into `Database` in db/schema.ts. */
/** trashed: deleted by a member, restorable until purged (migration 060). */
export type FileStatus = 'uploading' | 'stored' | 'complete' | 'trashed';

export type FilesTable = {
  id: string;
  parent_id: string | null;
  /** parent_id, or '' at the root (unique indexes treat NULLs as distinct). */
  parent_key: string;
  type: 'file' | 'folder';
  name: string;
  /** NFC + lower case of the name: duplicates are found case-insensitively. */
  name_key: string;
  category: string;
  /** Bytes. PostgreSQL returns bigint as a string, so always read it through Number(). */
  size: number | string;
  total_chunks: number;
  sha256: string | null;
  status: FileStatus;
  owner_id: string | null;
  /** While uploading: the upload is abandoned once this passes without being renewed. */
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** The Discord thread holding the chunks (the spec's threadId); null on other stores. Migration 008. */
  thread_id?: string | null;
  /**
   * Set while a resumable (tus) upload is in progress, marking it as one. Before migration 012 it held the
   * running SHA-256's saved state; the hash now stays on its thread between requests
   * (files/resumable/resumable-hashes.ts).
   */
  upload_hash_state?: string | null;
  /**
   * Bytes an upload under way was admitted for and has not yet recorded in `size` (a `POST /upload`
   * body; 0 otherwise). Quotas and the disk reserve count `size + reserved_bytes`. Migration 050.
   */
  reserved_bytes?: number | string;
  /** Trash (migration 060): when and by whom it was deleted, and the item whose delete took it. */
  deleted_at?: string | null;
  deleted_by?: string | null;
  trash_root_id?: string | null;
  /** A guest's upload through an upload request (migration 084): the request it counts against. */
  upload_request_id?: string | null;
};

export type FileChunksTable = {
  file_id: string;
  idx: number;
  /** The id the blob store returned; never derived from user input. */
  blob_id: string;
  size: number;
  /** The chunk's CRC32C as 8 hex digits, checked on every read (migration 012). */
  crc32c: string | null;
  /** Chunks stored before migration 012 carry a SHA-256 instead. */
  sha256: string | null;
};

/** Blobs whose rows are gone, waiting to be deleted from the store (survives crashes). */
export type BlobGarbageTable = {
  blob_id: string;
  queued_at: string;
};

export type FileSharesTable = {
  id: string;
  token: string;
  file_id: string;
  access_level: 'user' | 'public';
  expires_at: string | null;
  created_at: string;
  created_by: string | null;
  download_count: number;
  revoked_at: string | null;
  /** scrypt hash of the link's password, or null for none (migration 060). */
  password_hash?: string | null;
  /** The sharer's title and note for the shared page, the download limit, last edit (migration 080). */
  title?: string | null;
  note?: string | null;
  max_downloads?: number | null;
  updated_at?: string | null;
  /** 1: the sharer gets a notice for each download (migration 084). */
  notify_downloads?: number;
};

/** Downloads of a limited share begun per client (ticket or address), for Range continuations (080). */
export type FileShareClaimsTable = {
  share_id: string;
  claim_key: string;
  claimed_at: string;
};

export type DownloadTicketsTable = {
  token_hash: string;
  file_id: string;
  share_id: string | null;
  user_id: string | null;
  expires_at: string;
  /** The session that asked for it (null for an anonymous share download): it dies with that session. */
  session_hash: string | null;
};

/** Blobs copied by `storage migrate` and not yet switched to (migration 008). */
export type StorageCopiesTable = {
  blob_id: string;
  file_id: string;
  created_at: string;
};

export type FilesTables = {
  files: FilesTable;
  file_chunks: FileChunksTable;
  blob_garbage: BlobGarbageTable;
  file_shares: FileSharesTable;
  file_share_claims: FileShareClaimsTable;
  download_tickets: DownloadTicketsTable;
  storage_copies: StorageCopiesTable;
  storage_quotas: StorageQuotasTable;
  storage_locks: StorageLocksTable;
  file_thumbnails: FileThumbnailsTable;
  archive_tickets: ArchiveTicketsTable;
  upload_requests: UploadRequestsTable;
};

/** A member's upload link into one of their folders (migration 084); sizes are bigint (read via Number()). */
export type UploadRequestsTable = {
  id: string;
  token: string;
  owner_id: string;
  folder_id: string;
  title: string | null;
  note: string | null;
  max_total_bytes: number | string;
  max_files: number;
  /** Space-separated extensions and MIME patterns; '' = any. */
  allowed_types: string;
  expires_at: string;
  password_hash: string | null;
  notify: number;
  created_at: string;
  closed_at: string | null;
  files_received: number;
  bytes_received: number | string;
};

/** A file's generated thumbnail (migration 060); `none` records that the file has no picture. */
export type FileThumbnailsTable = {
  file_id: string;
  status: 'ready' | 'none';
  data: string | null;
  width: number | null;
  height: number | null;
  created_at: string;
};

/** A short-lived permission to download a selection as one ZIP (migration 060). */
export type ArchiveTicketsTable = {
  token_hash: string;
  item_ids: string;
  user_id: string | null;
  session_hash: string | null;
  expires_at: string;
};

/** One row per admission scope; updating it serialises admissions across instances (migration 050). */
export type StorageLocksTable = { name: string; version: number | string };

/** An admin-set storage quota for one member (migration 011). */
export type StorageQuotasTable = {
  user_id: string;
  quota_bytes: number | string;
  updated_at: string;
};
