import type { Knex } from 'knex';

const timestamps = (t: Knex.CreateTableBuilder) => {
  t.string('created_at', 32).notNullable();
  t.string('updated_at', 32).notNullable();
};

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('questions', (t) => {
    t.increments('id');
    t.string('domain', 100).notNullable();
    t.integer('course_id').nullable().references('courses.id').onDelete('SET NULL');
    t.string('type', 20).notNullable();
    t.text('stem').notNullable();
    t.text('options').notNullable();
    t.text('answer').notNullable();
    t.text('explanation').notNullable().defaultTo('');
    t.string('status', 16).notNullable().defaultTo('active');
    timestamps(t);
    t.index(['domain', 'status']);
    t.index(['status']);
  });
  await db.schema.createTable('exam_papers', (t) => {
    t.increments('id');
    t.string('name', 200).notNullable();
    t.string('type', 20).notNullable();
    t.string('domain', 100).notNullable();
    t.integer('question_count').notNullable();
    t.integer('total_score').notNullable();
    t.integer('pass_score').notNullable();
    t.integer('duration_minutes').notNullable();
    t.boolean('randomize').notNullable().defaultTo(false);
    t.text('description').notNullable().defaultTo('');
    t.integer('max_attempts').nullable();
    t.string('status', 16).notNullable().defaultTo('active');
    t.string('published_at', 32).nullable();
    timestamps(t);
    t.index(['status']);
  });
  // One row per start (formal, self-test or mistake retry); consumed once by submit.
  await db.schema.createTable('exam_sessions', (t) => {
    t.string('id', 36).primary();
    t.string('kind', 16).notNullable();
    t.integer('paper_id').nullable().references('exam_papers.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('exam_name', 200).notNullable();
    t.integer('total_score').notNullable();
    t.integer('pass_score').notNullable();
    t.integer('duration_minutes').notNullable();
    // The answer key as it was at start: grading never depends on later edits or disabling.
    t.text('questions').notNullable();
    t.string('started_at', 32).notNullable();
    t.string('deadline_at', 32).notNullable();
    t.text('saved_answers').nullable();
    t.string('saved_at', 32).nullable();
    t.string('submitted_at', 32).nullable();
    t.double('score').nullable();
    t.boolean('passed').nullable();
    // The response of a submit that is not stored as a record (self-test, retry), replayed on a second submit.
    t.text('result').nullable();
    t.index(['user_id', 'paper_id']);
  });
  await db.schema.createTable('exam_records', (t) => {
    t.increments('id');
    t.string('session_id', 36).notNullable().unique().references('exam_sessions.id').onDelete('CASCADE');
    t.integer('paper_id').notNullable().references('exam_papers.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('exam_name', 200).notNullable();
    t.double('score').notNullable();
    t.integer('total_score').notNullable();
    t.integer('pass_score').notNullable();
    t.boolean('passed').notNullable();
    t.integer('correct_count').notNullable();
    t.integer('wrong_count').notNullable();
    t.integer('question_count').notNullable();
    t.integer('time_spent_sec').notNullable();
    t.boolean('late').notNullable().defaultTo(false);
    t.text('detail').notNullable();
    t.string('started_at', 32).notNullable();
    t.string('submitted_at', 32).notNullable();
    t.index(['user_id', 'submitted_at']);
    t.index(['paper_id']);
    t.index(['submitted_at']);
  });
  await db.schema.createTable('certificates', (t) => {
    t.increments('id');
    // Unique: a record issues at most one certificate, whatever races the submits run.
    t.integer('record_id').notNullable().unique().references('exam_records.id').onDelete('CASCADE');
    t.string('certificate_no', 40).notNullable().unique();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('paper_id').notNullable().references('exam_papers.id').onDelete('CASCADE');
    t.string('full_name', 100).notNullable();
    t.string('exam_name', 200).notNullable();
    t.double('score').notNullable();
    t.integer('total_score').notNullable();
    t.integer('pass_score').notNullable();
    t.string('issued_at', 32).notNullable();
    t.index(['user_id']);
  });
  await db.schema.createTable('exam_mistakes', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('question_id').notNullable().references('questions.id').onDelete('CASCADE');
    t.integer('wrong_count').notNullable().defaultTo(1);
    t.text('last_wrong_answer').notNullable();
    t.string('last_wrong_at', 32).notNullable();
    t.string('last_source', 16).notNullable();
    t.boolean('mastered').notNullable().defaultTo(false);
    t.string('mastered_at', 32).nullable();
    timestamps(t);
    t.unique(['user_id', 'question_id']);
  });
  await db.schema.createTable('course_progress', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('course_id').notNullable().references('courses.id').onDelete('CASCADE');
    t.string('status', 16).notNullable();
    t.string('viewed_at', 32).nullable();
    t.string('completed_at', 32).nullable();
    t.string('updated_at', 32).notNullable();
    t.primary(['user_id', 'course_id']);
  });
  // Points ledger; the unique key makes every award happen once per source.
  await db.schema.createTable('point_events', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('source_type', 16).notNullable();
    t.integer('source_id').notNullable();
    t.integer('record_id').nullable().references('exam_records.id').onDelete('SET NULL');
    t.integer('points').notNullable();
    t.string('reason', 300).notNullable();
    t.string('created_at', 32).notNullable();
    t.unique(['user_id', 'source_type', 'source_id']);
    t.index(['record_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['point_events', 'course_progress', 'exam_mistakes', 'certificates', 'exam_records', 'exam_sessions', 'exam_papers', 'questions']) {
    await db.schema.dropTableIfExists(table);
  }
}
