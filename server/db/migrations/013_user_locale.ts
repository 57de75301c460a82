// The language a user chose for the interface, applied at every login on any machine. Null: not chosen yet (the
// renderer then keeps the language of the login screen, zh-CN by default).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('users', (t) => {
    t.string('locale', 16).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('users', (t) => {
    t.dropColumn('locale');
  });
}
