// Storage (docs/storage.md): a chunked upload on S3 is a multipart upload. The session keeps the object it becomes
// (a media's storage key, generated at init) and the store's upload id; each chunk row keeps its part's ETag, so
// complete can run on any node.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('upload_sessions', (t) => {
    t.string('storage_key', 64).nullable();
    t.string('multipart_id', 1024).nullable();
  });
  await db.schema.alterTable('upload_chunks', (t) => {
    t.string('etag', 128).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('upload_chunks', (t) => t.dropColumn('etag'));
  await db.schema.alterTable('upload_sessions', (t) => {
    t.dropColumn('storage_key');
    t.dropColumn('multipart_id');
  });
}
