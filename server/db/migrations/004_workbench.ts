import type { Knex } from 'knex';
import { BUILTIN_SKILLS, GENERAL_ASSISTANT, builtinSkillRow } from '../../workbench/builtins.js';

const timestamps = (t: Knex.CreateTableBuilder) => {
  t.string('created_at', 32).notNullable();
  t.string('updated_at', 32).notNullable();
};

const TABLES = ['study_notes', 'worker_task_artifacts', 'worker_task_runs', 'worker_tasks', 'worker_projects', 'workbench_actions', 'specialists', 'workbench_definitions'];

export async function up(db: Knex): Promise<void> {
  // Skills and app definitions share one table; a key is unique within its object_kind.
  await db.schema.createTable('workbench_definitions', (t) => {
    t.increments('id');
    t.string('object_kind', 16).notNullable();
    t.string('key', 64).notNullable();
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('state', 16).notNullable().defaultTo('active');
    t.boolean('exposed_to_user').notNullable().defaultTo(true);
    t.string('output_kind', 16).nullable();
    t.text('prompt_template').notNullable().defaultTo('');
    t.text('config_json').notNullable().defaultTo('{}');
    t.boolean('builtin').notNullable().defaultTo(false);
    timestamps(t);
    t.unique(['object_kind', 'key']);
  });
  await db.schema.createTable('specialists', (t) => {
    t.increments('id');
    t.string('key', 64).notNullable().unique();
    t.string('name', 200).notNullable();
    t.string('state', 16).notNullable().defaultTo('active');
    t.text('rule_file_markdown').notNullable().defaultTo('');
    t.text('allowed_skills').notNullable().defaultTo('[]');
    t.text('interaction_card_json').nullable();
    t.text('inputs_records_json').nullable();
    timestamps(t);
    t.index(['state']);
  });
  await db.schema.createTable('workbench_actions', (t) => {
    t.increments('id');
    t.string('key', 64).notNullable().unique();
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('kind', 16).notNullable();
    t.string('skill_key', 64).nullable();
    t.string('xapp_key', 64).nullable();
    t.text('prompt').notNullable().defaultTo('');
    t.text('config_json').notNullable().defaultTo('{}');
    t.string('state', 16).notNullable().defaultTo('active');
    timestamps(t);
  });
  await db.schema.createTable('worker_projects', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    timestamps(t);
    t.index(['user_id', 'updated_at']);
  });
  await db.schema.createTable('worker_tasks', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('title', 200).notNullable();
    t.string('specialist_key', 64).notNullable();
    t.integer('project_id').nullable().references('worker_projects.id').onDelete('SET NULL');
    t.boolean('pinned').notNullable().defaultTo(false);
    t.string('owner', 100).nullable();
    timestamps(t);
    t.index(['user_id', 'pinned', 'updated_at']);
    t.index(['project_id']);
  });
  await db.schema.createTable('worker_task_runs', (t) => {
    t.increments('id');
    t.integer('task_id').notNullable().references('worker_tasks.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('skill_key', 64).nullable();
    t.string('specialist_key', 64).notNullable();
    t.string('status', 16).notNullable();
    t.text('input').notNullable();
    t.text('output').notNullable().defaultTo('');
    t.text('error').nullable();
    t.integer('route_id').nullable();
    t.string('route_name', 200).nullable();
    t.string('route_model', 200).nullable();
    t.string('started_at', 32).notNullable();
    t.string('finished_at', 32).nullable();
    t.index(['task_id']);
  });
  await db.schema.createTable('worker_task_artifacts', (t) => {
    t.increments('id');
    t.integer('task_id').notNullable().references('worker_tasks.id').onDelete('CASCADE');
    t.integer('run_id').notNullable().references('worker_task_runs.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('skill_key', 64).notNullable();
    t.string('title', 300).notNullable();
    t.text('content').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['task_id']);
  });
  await db.schema.createTable('study_notes', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('title', 200).notNullable();
    t.text('content').notNullable().defaultTo('');
    t.integer('course_id').nullable().references('courses.id').onDelete('SET NULL');
    t.integer('product_id').nullable().references('products.id').onDelete('SET NULL');
    t.integer('task_id').nullable().references('worker_tasks.id').onDelete('SET NULL');
    timestamps(t);
    t.index(['user_id', 'updated_at']);
  });
  await seed(db);
}

async function seed(db: Knex): Promise<void> {
  const stamp = new Date().toISOString();
  await db('workbench_definitions').insert(BUILTIN_SKILLS.map((s) => builtinSkillRow(s, stamp)));
  await db('specialists').insert({
    key: GENERAL_ASSISTANT.key,
    name: GENERAL_ASSISTANT.name,
    state: GENERAL_ASSISTANT.state,
    rule_file_markdown: GENERAL_ASSISTANT.rule_file_markdown,
    allowed_skills: JSON.stringify(GENERAL_ASSISTANT.allowed_skills),
    created_at: stamp,
    updated_at: stamp,
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES) await db.schema.dropTableIfExists(table);
}
