// Usernames unique whatever their case (users/username-case.ts). Existing clashes do not fail the start: the rows
// stay, the admins get a notice listing them, and the index is made once a rename removes the last clash.
import type { Knex } from 'knex';
import { USERNAME_INDEX, ensureCaselessUsernames } from '../../users/username-case.js';

export async function up(db: Knex): Promise<void> {
  await ensureCaselessUsernames(db, { tellAdmins: true });
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS ??', [USERNAME_INDEX]);
}
