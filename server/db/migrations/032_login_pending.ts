// Logins in flight per throttle key (server/security/throttle.ts): a login reserves a place while its password is
// verified and gives it back when the answer is known, so only wrong passwords become `failures`. `pending_at` is the
// last time a place was taken or given back; places of a node that died mid-login are forgotten a minute after it.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('login_throttle', (t) => {
    t.integer('pending').notNullable().defaultTo(0);
    t.string('pending_at', 32).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('login_throttle', (t) => {
    t.dropColumn('pending');
    t.dropColumn('pending_at');
  });
}
