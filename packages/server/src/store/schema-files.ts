// The tables of stored contents and of who holds them, part of the Database of schema.ts.

/**
 * File contents addressed by SHA-256: on PostgreSQL every file, on SQLite the small files
 * committed with their submission (migration 0009; larger ones are on disk).
 */
export interface FileBlobsTable {
  sha256: string;
  size: number;
  /** The whole content (held files; PostgreSQL files stored before 0005); null when in file_chunks. */
  content: Uint8Array | null;
  /** When the contents were last stored: storing equal contents again moves it on (the sweep's grace, docs/privacy.md). */
  created_at: number;
}

/** PostgreSQL only: a file's content in order, a chunk per row. */
export interface FileChunksTable {
  sha256: string;
  seq: number;
  content: Uint8Array;
}

/** A content a workspace uploaded for its deploys: the contents its deploys may use (docs/hosting.md). */
export interface WorkspaceContentsTable {
  workspace_id: string;
  sha256: string;
  created_at: number;
}

/** A content among a submission's files (docs/privacy.md): erasure, the sweep and the upload quota read these. */
export interface SubmissionContentsTable {
  submission_id: string;
  sha256: string;
  project_id: string;
  size: number;
}
