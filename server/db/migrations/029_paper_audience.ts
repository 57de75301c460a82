// Who a paper is for: `has_audience` false is everyone (as before); true limits it to the departments and people in
// exam_paper_audience, plus the assignees of any assignment of the paper. Also an index for attempts per paper.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('exam_papers', (t) => {
    t.boolean('has_audience').notNullable().defaultTo(false);
  });
  await db.schema.createTable('exam_paper_audience', (t) => {
    t.integer('paper_id').notNullable().references('exam_papers.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.integer('target_id').notNullable();
    t.primary(['paper_id', 'kind', 'target_id']);
    t.index(['kind', 'target_id']);
  });
  // An assignment's progress counts each person's attempts at its paper (and notices a new one by the paper's count).
  await db.schema.alterTable('exam_sessions', (t) => {
    t.index(['paper_id'], 'exam_sessions_paper_index');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('exam_sessions', (t) => {
    t.dropIndex(['paper_id'], 'exam_sessions_paper_index');
  });
  await db.schema.dropTable('exam_paper_audience');
  await db.schema.alterTable('exam_papers', (t) => {
    t.dropColumn('has_audience');
  });
}
